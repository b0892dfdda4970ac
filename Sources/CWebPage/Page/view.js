// The view of the table on the screen: its scale and offset (CSS pixels),
// the part of the screen the table has (under the bar, beside or above the
// chat), fitting, zooming and panning. The math is geometry.js's.

import { fitScale, fitView, pannedOffset, zoomedView } from './geometry.js';
import { room } from './session.js';
import { needDraw } from './draw.js';
import { ensurePicture } from './pictures.js';
import { $, canvas } from './dom.js';

/** scale: CSS px a table unit; (ox, oy): where the table's origin is; fitted: follows the screen's size. */
export const view = { scale: 8, ox: 0, oy: 0, fitted: true };
/** The canvas in device pixels. */
export const screen = { cw: 0, ch: 0, dpr: 1 };

export function resizeCanvas() {
  screen.dpr = window.devicePixelRatio || 1;
  const w = Math.round(canvas.clientWidth * screen.dpr), h = Math.round(canvas.clientHeight * screen.dpr);
  if (w !== screen.cw || h !== screen.ch) { screen.cw = w; screen.ch = h; canvas.width = w; canvas.height = h; }
}

/** The screen the table has: below the bar, and beside (wide) or above (narrow) the open chat. */
export function viewArea() {
  const bar = $('bar').getBoundingClientRect();
  let right = canvas.clientWidth, bottom = canvas.clientHeight;
  const chat = $('chat');
  if (!chat.hidden && canvas.clientWidth >= 900) right -= chat.offsetWidth + 16;
  else if (!chat.hidden) bottom -= chat.offsetHeight + 16;
  return { x: 0, y: bar.bottom, w: Math.max(50, right), h: Math.max(50, bottom - bar.bottom) };
}

/** The least zoom: half of what fits the table. */
export const minScale = () => fitScale(room, viewArea()) * 0.5;

export function fit() {
  if (!room.table) return;
  Object.assign(view, fitView(room, viewArea()));
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

/** The table or the screen around it changed: a fitted view fits again. */
export function layoutChanged() {
  if (view.fitted || !room.table) fit();
  needDraw();
}
