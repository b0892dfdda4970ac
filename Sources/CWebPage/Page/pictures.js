// The puzzle's picture: the snapshot's small one (its `S px` rows, or by its
// hash a JPEG from `PICTURE jpeg`, kept by hash while the page lives), then
// `/picture` at the width the screen needs, sharper as the view zooms in.

import { UNIT, pictureWidth } from './geometry.js';
import { fromBase64 } from './wire.js';
import { now, req } from './link.js';
import { me, room, remember } from './session.js';
import { view } from './view.js';
import { needDraw, forgetSprites } from './draw.js';
import { drawLid } from './hud.js';

/** small: the snapshot's; hash: its hash; key: room and puzzle (a new one
 *  forgets the sharp one); sharp: /picture's, `sharpWidth` wide, with its
 *  retry after a failed fetch (`retryAt`, `backoff`) and the width on its way (`loading`). */
export const art = { small: null, hash: '', key: '', sharp: null, sharpWidth: 0, retryAt: 0, backoff: 0, loading: 0 };

const pictures = new Map(), pictureWanted = new Set();

/** The picture to draw: the sharp one when it came. */
export function currentPicture() { return art.sharp || art.small; }

/** After a snapshot (room.picture): its rows drawn, or the picture its hash names. */
export function takePicture(key) {
  const pic = room.picture;
  art.hash = pic.hash;
  if (pic.width && pic.rows.length) art.small = pictureFromRows(pic.width, pic.height, pic.rows);
  else if (pic.hash) { art.small = null; wantPicture(pic.hash); }
  const oldKey = art.key;
  art.key = key;
  if (art.key !== oldKey) { art.sharp = null; art.sharpWidth = 0; art.retryAt = 0; art.backoff = 0; }
}

/** `S jpeg` records (a JPEG in base64) to something to draw. */
function pictureFromJpeg(records) {
  const bin = fromBase64(records.filter((r) => r.kind === 'jpeg').map((r) => r.data).join(''));
  const bytes = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
  return createImageBitmap(new Blob([bytes], { type: 'image/jpeg' }));
}

/** The picture a compact snapshot names by its hash: kept, or asked for
 *  (drawn from /picture meanwhile, once that comes). */
function wantPicture(hash) {
  if (pictures.has(hash)) { art.small = pictures.get(hash); return; }
  if (pictureWanted.has(hash)) return;
  pictureWanted.add(hash);
  // A JPEG: a fifth of a PNG's bytes; /picture's sharper one replaces it.
  req('PICTURE jpeg', (r, records) => {
    const got = r.hash;
    pictureFromJpeg(records).then((bmp) => {
      pictureWanted.delete(hash);
      remember(pictures, got, bmp, 8);
      if (art.hash === got) { art.small = bmp; forgetSprites(); needDraw(); drawLid(); }
    }).catch(() => pictureWanted.delete(hash));
  }, () => { pictureWanted.delete(hash); return true; });
}

/** `S px` rows (`rrggbb` a pixel) drawn on a canvas. */
export function pictureFromRows(w, h, rows) {
  const c = document.createElement('canvas');
  c.width = w; c.height = h;
  const g = c.getContext('2d');
  const img = g.createImageData(w, h);
  for (let y = 0; y < h && y < rows.length; y++) {
    const row = rows[y];
    for (let x = 0; x < w; x++) {
      const o = (y * w + x) * 4, hex = row.substr(x * 6, 6);
      const v = parseInt(hex, 16) || 0;
      img.data[o] = v >> 16; img.data[o + 1] = (v >> 8) & 255; img.data[o + 2] = v & 255; img.data[o + 3] = 255;
    }
  }
  g.putImageData(img, 0, 0);
  return c;
}

/** The picture at the width this screen needs, from /picture (the snapshot's until it comes). */
export function ensurePicture() {
  if (!room.joined || art.loading || now() < art.retryAt) return;
  const boardPx = room.cols * UNIT * view.scale * (window.devicePixelRatio || 1);
  const want = pictureWidth(boardPx, room.rows, room.cols);
  if (art.sharp && art.sharpWidth >= want) return;
  const key = art.key;
  art.loading = want;
  fetch(`/picture/${encodeURIComponent(me.room)}?w=${want}`, { cache: 'no-cache' })
    .then((r) => { if (!r.ok) throw new Error(String(r.status)); return r.blob(); })
    .then((b) => createImageBitmap(b))
    .then((bmp) => {
      art.loading = 0; art.backoff = 0;
      if (key !== art.key) { ensurePicture(); return; }
      art.sharp = bmp; art.sharpWidth = want;
      forgetSprites(); needDraw(); drawLid();
      ensurePicture(); // the view may want a bigger one by now
    })
    .catch(() => {
      // A flaky link: try again later (2 s, doubling up to a minute), not
      // never; meanwhile the snapshot's small picture is drawn.
      art.loading = 0;
      if (key !== art.key) return;
      art.backoff = Math.min(60000, (art.backoff || 1000) * 2);
      art.retryAt = now() + art.backoff;
      setTimeout(ensurePicture, art.backoff + 50);
    });
}
