// The view of the table on the screen: its scale and offset (CSS pixels),
// the part of the screen the table has (under the bar, beside or above the
// chat), fitting, zooming and panning. The math is geometry.js's.

import { fitScale, fitView, pannedOffset, zoomedView } from './geometry.js';
import { me, room } from './session.js';
import { needDraw } from './draw.js';
import { ensurePicture } from './pictures.js';
import { $, canvas } from './dom.js';

/** scale: CSS px a table unit; (ox, oy): where the table's origin is; fitted: follows the screen's size;
 *  layout: the room, puzzle and table it was set for (a new one fits again); area: the screen it had. */
export const view = { scale: 8, ox: 0, oy: 0, fitted: true, layout: '', area: null };
/** The canvas in device pixels. */
export const screen = { cw: 0, ch: 0, dpr: 1 };

export function resizeCanvas() {
  screen.dpr = window.devicePixelRatio || 1;
  const w = Math.round(canvas.clientWidth * screen.dpr), h = Math.round(canvas.clientHeight * screen.dpr);
  if (w !== screen.cw || h !== screen.ch) { screen.cw = w; screen.ch = h; canvas.width = w; canvas.height = h; }
}

/** The screen the table has: below the bar, and beside (wide screens, a
 *  phone on its side) or above (narrow) the open chat, wherever it is laid. */
export function viewArea() {
  const bar = $('bar').getBoundingClientRect();
  let right = canvas.clientWidth, bottom = canvas.clientHeight;
  const chat = $('chat');
  if (!chat.hidden) {
    const c = chat.getBoundingClientRect();
    if (c.left > right * 0.3) right = c.left - 8; else bottom = c.top - 8;
  }
  return { x: 0, y: bar.bottom, w: Math.max(50, right), h: Math.max(50, bottom - bar.bottom) };
}

/** The least zoom: half of what fits the table. */
export const minScale = () => fitScale(room, viewArea()) * 0.5;

export function fit() {
  if (!room.table) return;
  view.area = viewArea();
  Object.assign(view, fitView(room, view.area));
  view.fitted = true;
  ensurePicture();
  needDraw();
}

export function zoomAt(sx, sy, factor) {
  Object.assign(view, zoomedView(view, sx, sy, factor, minScale()));
  view.fitted = false;
  ensurePicture();
  needDraw();
}

export function zoomCenter(factor) {
  const a = viewArea();
  zoomAt(a.x + a.w / 2, a.y + a.h / 2, factor);
}

export function panBy(dx, dy) {
  // Keep a part of the table in sight.
  Object.assign(view, pannedOffset(view, room.table, dx, dy, canvas.clientWidth, canvas.clientHeight));
  view.fitted = false;
  needDraw();
}

const layoutOf = () => (room.table ? `${me.room}/${room.puzzle}/${room.rows}x${room.cols}/${room.table.w}x${room.table.h}` : '');

/** The table or the screen around it changed: a fitted view, or a new
 *  puzzle's (a new layout: the old zoom and place mean nothing on it),
 *  fits again; a view of the same one (a reconnect, the chat opened, the
 *  phone turned) keeps its zoom, and the table point at the middle of the
 *  screen it had stays in the middle. */
export function layoutChanged() {
  const layout = layoutOf();
  if (layout !== view.layout) { view.layout = layout; view.fitted = true; }
  if (view.fitted || !room.table) { fit(); return; }
  if (!canvas.clientWidth) return; // the table is not on screen (the rooms are)
  const a = viewArea(), was = view.area;
  if (was && (a.x !== was.x || a.y !== was.y || a.w !== was.w || a.h !== was.h)) {
    view.ox += a.x + a.w / 2 - (was.x + was.w / 2);
    view.oy += a.y + a.h / 2 - (was.y + was.h / 2);
  }
  view.area = a;
  needDraw();
}
