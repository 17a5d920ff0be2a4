/**
 * The app page's script (served by ./app-page.ts as its own file: the page's CSP forbids inline
 * scripts). It keeps the reader's API token in sessionStorage (from a SAML sign-in's `#token=`, or
 * pasted), reads the object the path names through `/v1`, and shows it. Data only ever reaches the
 * page as textContent or as an attribute: never as HTML. Written without backquotes, as it sits in one.
 */
export const APP_SCRIPT = String.raw`(function () {
  'use strict';
  var KEY = 'quire.token';
  var main = document.getElementById('main');
  var who = document.getElementById('who');
  var route = JSON.parse(document.getElementById('app-route').textContent);
  var enc = encodeURIComponent;

  function h(tag, props) {
    var node = document.createElement(tag);
    if (props) for (var k in props) {
      if (k === 'text') node.textContent = props[k];
      else if (k === 'onclick' || k === 'onsubmit') node.addEventListener(k.slice(2), props[k]);
      else node.setAttribute(k, props[k]);
    }
    for (var i = 2; i < arguments.length; i++) {
      var child = arguments[i];
      if (child == null || child === false) continue;
      node.appendChild(typeof child === 'string' ? document.createTextNode(child) : child);
    }
    return node;
  }

  // Only links of this server's app, or http(s) ones: never a javascript: URL from data.
  function safeHref(url) {
    if (typeof url !== 'string') return null;
    try {
      var u = new URL(url, location.href);
      return u.protocol === 'https:' || u.protocol === 'http:' ? u.href : null;
    } catch (e) { return null; }
  }
  function link(text, url) {
    var href = safeHref(url);
    return href ? h('a', { href: href, text: text }) : h('span', { text: text });
  }
  function appLink(text, body) { return link(text, body && body.urls && body.urls.app); }

  // The token: from the fragment a SAML sign-in sends, then gone from the address bar and history.
  function takeToken() {
    if (!location.hash) return false;
    var token = new URLSearchParams(location.hash.slice(1)).get('token');
    if (!token) return false;
    sessionStorage.setItem(KEY, token);
    history.replaceState(null, '', location.pathname + location.search);
    return true;
  }
  takeToken();
  // A sign-in that lands on the page already open changes only the fragment: no reload.
  window.addEventListener('hashchange', function () { if (takeToken()) show(); });
  function token() { return sessionStorage.getItem(KEY); }

  function api(path) {
    return fetch(path, { headers: { Authorization: 'Bearer ' + token(), Accept: 'application/json' }, credentials: 'omit', cache: 'no-store' })
      .then(function (res) {
        return res.json().then(function (body) { return { status: res.status, body: body }; }, function () { return { status: res.status, body: null }; });
      });
  }

  var NOT_FOUND = 'Not found, or you cannot see it.';
  function Missing() { this.missing = true; }
  function Refused() { this.refused = true; }
  // One answer for a missing object and one the token may not see (404, or 403 on a read).
  function get(path) {
    return api(path).then(function (r) {
      if (r.status === 200) return r.body;
      if (r.status === 404 || r.status === 403) throw new Missing();
      if (r.status === 401) throw new Refused();
      throw new Error((r.body && r.body.error && r.body.error.message) || ('The API answered ' + r.status));
    });
  }
  function optional(path) { return get(path).catch(function (e) { if (e instanceof Missing) return null; throw e; }); }
  function sameOrg(body, org) { if (body && body.organization && body.organization !== org) throw new Missing(); return body; }

  function clear() { while (main.firstChild) main.removeChild(main.firstChild); }
  function title(kind, text) { document.title = text + ' · Quire'; return [h('div', { class: 'kind', text: kind }), h('h1', { text: text })]; }
  function fields(list) {
    var dl = h('dl');
    list.forEach(function (f) { if (f[1] != null && f[1] !== '') { dl.appendChild(h('dt', { text: f[0] })); dl.appendChild(h('dd', null, typeof f[1] === 'object' ? f[1] : String(f[1]))); } });
    return h('section', null, dl);
  }
  function listOf(heading, items, render, empty) {
    var ul = h('ul');
    items.forEach(function (item) { ul.appendChild(h('li', null, render(item))); });
    return h('section', null, h('h2', { text: heading }), items.length ? ul : h('p', { class: 'muted', text: empty || 'None.' }));
  }
  function graphiql(query) { return '/graphql?query=' + enc(query); }
  function apiBox(rest, operation, query) {
    return h('section', null, h('h2', { text: 'In the API' }), h('ul', null,
      h('li', null, 'REST: ', h('code', { text: 'GET ' + rest })),
      h('li', null, link('API reference', '/v1/docs'), ' (operation ', h('code', { text: operation }), ')'),
      query ? h('li', null, link('Open in GraphiQL', graphiql(query)), ' (put your token in its Headers pane)') : null));
  }

  function describe() {
    var r = route;
    switch (r.kind) {
      case 'home': return 'the organizations you belong to';
      case 'organization': return 'organization ' + r.org;
      case 'space': return 'space ' + r.space;
      case 'page': return 'the page at "' + decodeSafe(r.path) + '" of space ' + r.space;
      case 'changeRequest': return 'change request #' + r.number + ' of space ' + r.space;
      case 'revision': return 'revision ' + r.revision + ' of space ' + r.space;
      case 'collection': return 'collection ' + r.collection;
      case 'site': return 'site ' + r.site;
      case 'openapi': return 'the OpenAPI specification "' + r.slug + '"';
      case 'installation': return 'the installation of integration "' + r.integration + '" in organization ' + r.org;
      case 'integration': return 'integration "' + r.integration + '"';
    }
    return 'an object';
  }
  function decodeSafe(s) { try { return decodeURIComponent(s); } catch (e) { return s; } }

  function signIn(message) {
    clear();
    who.textContent = '';
    var input = h('input', { id: 'token', type: 'password', autocomplete: 'off', spellcheck: 'false', placeholder: 'API token' });
    main.appendChild(h('h1', { text: 'Quire' }));
    if (message) main.appendChild(h('section', { class: 'notice', role: 'alert' }, h('p', { text: message })));
    main.appendChild(h('section', null,
      h('p', { text: 'This link opens ' + describe() + ', read through the REST API with your API token.' }),
      h('p', null, 'Sign in through your organization\'s single sign-on (it brings you back here), or paste a token made with ',
        h('code', { text: 'quire token create' }), ' or ', h('code', { text: 'POST /v1/user/tokens' }), '. It stays in this tab only.')));
    main.appendChild(h('form', { onsubmit: function (event) {
      event.preventDefault();
      var value = input.value.trim();
      if (!value) return;
      sessionStorage.setItem(KEY, value);
      show();
    } }, h('label', { for: 'token', text: 'API token' }), input, h('button', { type: 'submit', text: 'Open' })));
    main.appendChild(h('p', { class: 'muted' }, 'Or read the ', link('API reference', '/v1/docs'), ' and try queries in ', link('GraphiQL', '/graphql'), '.'));
  }

  var views = {
    home: function () {
      return get('/v1/orgs').then(function (orgs) {
        return [].concat(title('Signed in', 'Your organizations'),
          listOf('Organizations', orgs.items || [], function (o) { return appLink(o.title, o); }, 'You belong to no organization.'),
          apiBox('/v1/orgs', 'listOrganizationsForAuthenticatedUser', '{ viewer { organizations { edges { node { title restId } } } } }'));
      });
    },
    organization: function (r) {
      return get('/v1/orgs/' + enc(r.org)).then(function (org) {
        return Promise.all([optional('/v1/orgs/' + enc(r.org) + '/spaces'), optional('/v1/orgs/' + enc(r.org) + '/collections')]).then(function (more) {
          return [].concat(title('Organization', org.title), fields([['Id', org.id], ['Created', org.createdAt], ['Plan', org.plan], ['Host name', org.hostname]]),
            listOf('Spaces', (more[0] && more[0].items) || [], function (s) { return appLink(s.title, s); }),
            listOf('Collections', (more[1] && more[1].items) || [], function (c) { return appLink(c.title, c); }),
            apiBox('/v1/orgs/' + r.org, 'getOrganizationById', '{ organization(id: ' + JSON.stringify(r.org) + ') { title createdAt spaces(first: 20) { edges { node { title restId } } } } }'));
        });
      });
    },
    space: function (r) {
      return get('/v1/spaces/' + enc(r.space)).then(function (s) { return sameOrg(s, r.org); }).then(function (space) {
        return Promise.all([optional('/v1/spaces/' + enc(r.space) + '/content/pages'), optional('/v1/spaces/' + enc(r.space) + '/change-requests')]).then(function (more) {
          var pages = [];
          (function walk(list) { (list || []).forEach(function (p) { if (pages.length < 200) { pages.push(p); walk(p.pages); } }); })(more[0] && more[0].pages);
          return [].concat(title('Space', (space.emoji ? space.emoji + ' ' : '') + space.title),
            fields([['Organization', link(r.org, '/o/' + enc(r.org) + '/')], ['Visibility', space.visibility], ['Updated', space.updatedAt],
              ['Published', space.urls && space.urls.published ? link(space.urls.published, space.urls.published) : null]]),
            listOf('Pages', pages, function (p) { return p.urls ? appLink(p.title, p) : h('span', { text: p.title }); }),
            listOf('Change requests', (more[1] && more[1].items) || [], function (c) { return appLink('#' + c.number + ' ' + (c.subject || '(no subject)') + ' · ' + c.status, c); }),
            apiBox('/v1/spaces/' + r.space, 'getSpaceById', spaceQuery(r)));
        });
      });
    },
    page: function (r) {
      return spaceOf(r).then(function (space) {
        return get('/v1/spaces/' + enc(r.space) + '/content/path/' + r.path + '?format=markdown').then(function (page) {
          return [].concat(title('Page', (page.emoji ? page.emoji + ' ' : '') + page.title),
            fields([['Space', appLink(space.title, space)], ['Path', page.path], ['Description', page.description], ['Updated', page.updatedAt]]),
            page.markdown ? h('section', null, h('h2', { text: 'Content' }), h('pre', { text: page.markdown.slice(0, 20000) })) : [],
            apiBox('/v1/spaces/' + r.space + '/content/path/' + r.path, 'getPageByPath', spaceQuery(r)));
        });
      });
    },
    changeRequest: function (r) {
      return spaceOf(r).then(function (space) {
        return get('/v1/spaces/' + enc(r.space) + '/change-requests/' + enc(r.number)).then(function (cr) {
          return [].concat(title('Change request #' + cr.number, cr.subject || '(no subject)'),
            fields([['Space', appLink(space.title, space)], ['Status', cr.status], ['Author', cr.createdBy && cr.createdBy.displayName], ['Created', cr.createdAt], ['Updated', cr.updatedAt]]),
            apiBox('/v1/spaces/' + r.space + '/change-requests/' + r.number, 'getChangeRequestById', spaceQuery(r)));
        });
      });
    },
    revision: function (r) {
      return spaceOf(r).then(function (space) {
        var current = space.revision === r.revision;
        return [].concat(title('Revision', r.revision),
          fields([['Space', appLink(space.title, space)], ['Current', current ? 'yes: the space shows this revision' : 'no: the space has moved on since'],
            ['Space\'s revision', space.revision]]),
          apiBox('/v1/spaces/' + r.space + '/content', 'getCurrentRevision', spaceQuery(r)));
      });
    },
    collection: function (r) {
      return get('/v1/collections/' + enc(r.collection)).then(function (c) { return sameOrg(c, r.org); }).then(function (c) {
        return optional('/v1/collections/' + enc(r.collection) + '/spaces').then(function (spaces) {
          return [].concat(title('Collection', c.title), fields([['Organization', link(r.org, '/o/' + enc(r.org) + '/')], ['Description', c.description]]),
            listOf('Spaces', (spaces && spaces.items) || [], function (s) { return appLink(s.title, s); }),
            apiBox('/v1/collections/' + r.collection, 'getCollectionById', '{ organization(id: ' + JSON.stringify(r.org) + ') { collections(first: 50) { edges { node { title restId } } } } }'));
        });
      });
    },
    site: function (r) {
      return get('/v1/orgs/' + enc(r.org) + '/sites/' + enc(r.site)).then(function (site) {
        return [].concat(title('Site', site.title), fields([['Organization', link(r.org, '/o/' + enc(r.org) + '/')], ['Visibility', site.visibility], ['Published', site.published ? 'yes' : 'no'],
          ['Address', site.urls && site.urls.published ? link(site.urls.published, site.urls.published) : null], ['Spaces', site.siteSpaces]]),
          apiBox('/v1/orgs/' + r.org + '/sites/' + r.site, 'getSiteById', '{ publishedSite(siteId: ' + JSON.stringify(r.site) + ') { __typename } }'));
      });
    },
    openapi: function (r) {
      return get('/v1/orgs/' + enc(r.org) + '/openapi/' + enc(r.slug)).then(function (spec) {
        return [].concat(title('OpenAPI specification', spec.slug), fields([['Organization', link(r.org, '/o/' + enc(r.org) + '/')], ['State', spec.processingState], ['Visibility', spec.visibility],
          ['Source', spec.sourceURL ? link(spec.sourceURL, spec.sourceURL) : null], ['Processed', spec.lastProcessedAt],
          ['Published', spec.urls && spec.urls.published ? link(spec.urls.published, spec.urls.published) : null]]),
          apiBox('/v1/orgs/' + r.org + '/openapi/' + r.slug, 'getOpenAPISpec', '{ organization(id: ' + JSON.stringify(r.org) + ') { openApiSpec(slug: ' + JSON.stringify(r.slug) + ') { slug } } }'));
      });
    },
    installation: function (r) {
      var base = '/v1/integrations/' + enc(r.integration);
      return get(base + '/installations').then(function (list) {
        var found = (list.items || []).filter(function (i) { return i.target && i.target.organization === r.org; })[0];
        if (!found) throw new Missing();
        return [].concat(title('Installation', r.integration), fields([['Organization', link(r.org, '/o/' + enc(r.org) + '/')], ['Integration', link(r.integration, '/integrations/' + enc(r.integration))],
          ['Status', found.status], ['Installed', found.createdAt], ['Spaces', found.space_selection], ['Sites', found.site_selection]]),
          apiBox(base + '/installations/' + found.id, 'getIntegrationInstallationById', '{ organization(id: ' + JSON.stringify(r.org) + ') { installations(first: 20) { edges { node { __typename } } } } }'));
      });
    },
    integration: function (r) {
      return get('/v1/integrations/' + enc(r.integration)).then(function (it) {
        return [].concat(title('Integration', it.title || it.name), fields([['Name', it.name], ['Summary', it.summary], ['Description', it.description], ['Version', it.version],
          ['Visibility', it.visibility], ['Publisher', it.owner ? appLink(it.owner.title, it.owner) : null]]),
          apiBox('/v1/integrations/' + r.integration, 'getIntegrationByName', '{ integration(name: ' + JSON.stringify(r.integration) + ') { title description } }'));
      });
    },
  };
  function spaceOf(r) { return get('/v1/spaces/' + enc(r.space)).then(function (s) { return sameOrg(s, r.org); }); }
  function spaceQuery(r) { return '{ organization(id: ' + JSON.stringify(r.org) + ') { spaces(first: 50) { edges { node { title restId } } } } }'; }

  function show() {
    if (!token()) return signIn();
    clear();
    main.appendChild(h('p', { class: 'muted', text: 'Loading ' + describe() + '…' }));
    api('/v1/user').then(function (me) {
      if (me.status === 401) { sessionStorage.removeItem(KEY); throw new Refused(); }
      who.textContent = '';
      if (me.body && me.body.displayName) who.appendChild(document.createTextNode(me.body.displayName + ' · '));
      who.appendChild(h('button', { class: 'link', type: 'button', text: 'Forget token', onclick: function () { sessionStorage.removeItem(KEY); signIn(); } }));
      return views[route.kind](route);
    }).then(function (nodes) {
      clear();
      [].concat(nodes).forEach(function (n) { main.appendChild(n); });
    }).catch(function (e) {
      if (e instanceof Refused) return signIn('That token was refused: it is unknown, revoked or expired. Paste another one.');
      clear();
      if (e instanceof Missing) {
        document.title = 'Not found · Quire';
        main.appendChild(h('h1', { text: NOT_FOUND }));
        main.appendChild(h('p', { class: 'muted', text: 'The link was to ' + describe() + '.' }));
        main.appendChild(h('p', null, link('Your organizations', '/')));
        return;
      }
      main.appendChild(h('section', { class: 'notice', role: 'alert' }, h('p', { text: 'Could not read ' + describe() + ': ' + (e && e.message ? e.message : String(e)) })));
    });
  }
  show();
})();
`;
