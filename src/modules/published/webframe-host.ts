import { MAX_FRAME_HEIGHT } from './contentkit';

/*
 * The page's side of ContentKit's web frame protocol, served as a file of the site
 * (`~quire/webframe.js`) since the page's policy allows no inline script. A frame says
 * `{ action: { action: '@webframe.ready' } }`; the page answers `{ state: <its data> }` (the data
 * the integration gave it, bindings already resolved on the server, in the iframe's
 * `data-state`), also when it loads. A frame asking `{ action: { action: '@webframe.resize', size: { height } } }`
 * (or an `aspectRatio`) is resized, within bounds. Messages are matched to their frame by source
 * window: the frames are sandboxed without same-origin, so their origin is opaque ('null') and
 * messages to them go to '*' — they carry only what the page already holds for that frame.
 */
export const WEBFRAME_HOST_PATH = '~quire/webframe.js';

export const WEBFRAME_HOST_SCRIPT = `(function () {
  'use strict';
  var MAX_HEIGHT = ${MAX_FRAME_HEIGHT};
  function frameOf(source) {
    var frames = document.querySelectorAll('.ck-webframe iframe');
    for (var i = 0; i < frames.length; i++) if (frames[i].contentWindow === source) return frames[i];
    return null;
  }
  function stateOf(frame) {
    try { return JSON.parse(frame.getAttribute('data-state') || '{}'); } catch (e) { return {}; }
  }
  function send(frame) {
    if (frame.contentWindow) frame.contentWindow.postMessage({ state: stateOf(frame) }, '*');
  }
  // A frame that loaded before this script ran has asked already: each frame also gets its state
  // now and whenever it loads.
  var frames = document.querySelectorAll('.ck-webframe iframe');
  for (var i = 0; i < frames.length; i++) {
    frames[i].addEventListener('load', send.bind(null, frames[i]));
    send(frames[i]);
  }
  window.addEventListener('message', function (event) {
    var frame = frameOf(event.source);
    var message = event.data;
    if (!frame || !message || typeof message !== 'object' || !message.action || typeof message.action !== 'object') return;
    var action = message.action;
    if (action.action === '@webframe.ready') {
      send(frame);
    } else if (action.action === '@webframe.resize' && action.size && typeof action.size === 'object') {
      var height = Number(action.size.height);
      var ratio = Number(action.size.aspectRatio);
      if (isFinite(height) && height > 0) {
        frame.style.aspectRatio = 'auto';
        frame.style.height = Math.min(height, MAX_HEIGHT) + 'px';
      } else if (isFinite(ratio) && ratio > 0.05 && ratio < 20) {
        frame.style.height = '';
        frame.style.aspectRatio = String(ratio);
      }
    }
  });
})();
`;
