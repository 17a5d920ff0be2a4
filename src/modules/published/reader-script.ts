/*
 * The published pages' own script, served as a file of the site (`~quire/reader.js`) and allowed
 * by URL in the page's policy, since no inline script is. The page works without it; it adds what
 * needs one: a copy button on code blocks, `/` or Ctrl-K (⌘K) to focus the search box, and
 * closing a section group's menu on a click elsewhere or Escape. The theme needs none: the switch
 * is a link and the server keeps the choice in a cookie.
 */
export const READER_SCRIPT_PATH = '~quire/reader.js';

export const READER_SCRIPT = `(function () {
  'use strict';
  function copyText(text) {
    if (navigator.clipboard && window.isSecureContext) return navigator.clipboard.writeText(text);
    // Plain http (a site read before TLS is set up): the older way, through a selection.
    var area = document.createElement('textarea');
    area.value = text;
    area.setAttribute('readonly', '');
    area.style.position = 'fixed';
    area.style.opacity = '0';
    document.body.appendChild(area);
    area.select();
    var ok = document.execCommand('copy');
    document.body.removeChild(area);
    return ok ? Promise.resolve() : Promise.reject(new Error('copy refused'));
  }
  var blocks = document.querySelectorAll('article pre');
  for (var i = 0; i < blocks.length; i++) {
    (function (pre) {
      var button = document.createElement('button');
      button.type = 'button';
      button.className = 'copy';
      button.textContent = 'Copy';
      button.setAttribute('aria-label', 'Copy the code');
      button.addEventListener('click', function () {
        var code = pre.querySelector('code') || pre;
        copyText(code.textContent).then(function () { button.textContent = 'Copied'; }, function () { button.textContent = 'Press Ctrl-C'; });
        setTimeout(function () { button.textContent = 'Copy'; }, 2000);
      });
      pre.appendChild(button);
    })(blocks[i]);
  }
  function typing(target) {
    return target && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName));
  }
  document.addEventListener('keydown', function (event) {
    var search = document.querySelector('header .search input');
    if ((event.key === 'k' || event.key === 'K') && (event.ctrlKey || event.metaKey) && !event.altKey) {
      if (!search) return;
      event.preventDefault();
      search.focus();
      search.select();
    } else if (event.key === '/' && !event.ctrlKey && !event.metaKey && !event.altKey && !typing(event.target)) {
      if (!search) return;
      event.preventDefault();
      search.focus();
    } else if (event.key === 'Escape') {
      closeMenus(null);
    }
  });
  function closeMenus(except) {
    var open = document.querySelectorAll('details.tabgroup[open]');
    for (var j = 0; j < open.length; j++) if (open[j] !== except) open[j].removeAttribute('open');
  }
  document.addEventListener('click', function (event) {
    var inside = event.target && event.target.closest ? event.target.closest('details.tabgroup') : null;
    closeMenus(inside);
  });
})();
`;
