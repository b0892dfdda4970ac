// Carrying a piece far: while a held piece's pointer (a finger or the mouse)
// is near an edge of the table's part of the screen, the view moves that way,
// a little at first and faster nearer the edge (lens.js's edgeVelocity), so a
// piece crosses a big table zoomed in. The piece stays under the pointer.

import { edgeVelocity } from './lens.js';
import { view, viewArea, panBy } from './view.js';
import { room } from './session.js';

const MOST = 900; // px a second at the very edge
const scroll = { pt: null, follow: null, last: 0, running: false };

/** The held piece's pointer is at screen point `pt`; `follow()` moves the
 *  piece under it again after the view moved (false: nothing is held). */
export function edgeScroll(pt, follow) {
  scroll.pt = { x: pt.x, y: pt.y };
  scroll.follow = follow;
  if (!scroll.running) { scroll.running = true; scroll.last = 0; requestAnimationFrame(step); }
}

/** The piece was let go. */
export function stopEdgeScroll() { scroll.pt = null; }

/** The band along the edges where the view moves: a finger's width, less on a small screen. */
export const edgeZone = (a) => Math.min(56, a.w * 0.15, a.h * 0.15);

function step(t) {
  if (!scroll.pt || !room.table) { scroll.running = false; return; }
  const dt = scroll.last ? Math.min(50, t - scroll.last) : 16;
  scroll.last = t;
  const a = viewArea();
  const table = { x: view.ox, y: view.oy, w: room.table.w * view.scale, h: room.table.h * view.scale };
  const v = edgeVelocity(scroll.pt, a, table, edgeZone(a), MOST);
  if (v.vx || v.vy) {
    panBy(-v.vx * dt / 1000, -v.vy * dt / 1000);
    if (!scroll.follow()) { scroll.pt = null; scroll.running = false; return; }
  }
  requestAnimationFrame(step);
}
