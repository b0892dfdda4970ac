// Pieces cut from the picture, for one table drawn (the live room's, or a
// replay's on a room of its own): each piece's outline as a Path2D, a part's
// outer outline, and sprites (the picture inside a piece's outline, once per
// size and style). Both tables draw pieces the same way from here.

import { PAD, SPRITE_PIXELS, outline, sideOutline } from './geometry.js';
import { joinedOn } from './parts.js';

function toPath(steps) {
  const path = new Path2D();
  for (const s of steps) {
    if (s[0] === 'M') path.moveTo(s[1], s[2]);
    else if (s[0] === 'L') path.lineTo(s[1], s[2]);
    else if (s[0] === 'C') path.bezierCurveTo(s[1], s[2], s[3], s[4], s[5], s[6]);
    else path.closePath();
  }
  return path;
}

/** A cutter for the room `roomOf()` returns, cutting from `pictureOf()`
 *  (null: plain grey pieces). Its `side` is the sprites' size in pixels;
 *  `epoch` counts how often they were cut again (drawing caches key on it). */
export function createCutter(roomOf, pictureOf) {
  const paths = new Map(), sprites = new Map();
  let pixels = 0;
  const cut = {
    side: 0,
    epoch: 0,
    /** The picture changed: cut the sprites again. */
    forgetSprites() { sprites.clear(); pixels = 0; cut.epoch++; },
    /** A new puzzle or room: its outlines and sprites. */
    forgetShapes() { paths.clear(); cut.forgetSprites(); },
    /** The sprites' size changes (they are cut again at it). */
    resize(side) { if (side !== cut.side) { cut.side = side; cut.forgetSprites(); } },
    pathOf,
    outerPathOf,
    spriteOf,
  };

  /** A piece's outline in its own cell units (0..1, tabs beyond), unrotated. */
  function pathOf(id) {
    let path = paths.get(id);
    if (path) return path;
    const steps = outline(roomOf(), id);
    if (!steps) { path = new Path2D(); path.rect(0, 0, 1, 1); } else path = toPath(steps);
    paths.set(id, path);
    return path;
  }
  /** Which sides of `p` (bit 0 top, 1 right, 2 bottom, 3 left) face a piece of its part. */
  function joinedMask(p) {
    let mask = 0;
    for (let side = 0; side < 4; side++) if (joinedOn(roomOf(), p, side)) mask |= 1 << side;
    return mask;
  }
  /** What a piece of a part shows: its outline on its outer sides, and on
   *  each joined side its whole cell and a little beyond (the neighbour shows
   *  the same picture there), so no background shows between the two. */
  function partClipOf(id, mask) {
    const key = `c${id}/${mask}`;
    let path = paths.get(key);
    if (path) return path;
    const e = 0.15;
    const straight = [[[0, -e], [1, -e], [1, 0]], [[1 + e, 0], [1 + e, 1], [1, 1]], [[1, 1 + e], [0, 1 + e], [0, 1]], [[-e, 1], [-e, 0], [0, 0]]];
    const steps = [['M', 0, 0]];
    for (let side = 0; side < 4; side++) {
      if (mask & (1 << side)) for (const [x, y] of straight[side]) steps.push(['L', x, y]);
      else steps.push(...sideOutline(roomOf(), id, side).slice(1));
    }
    steps.push(['Z']);
    path = toPath(steps);
    paths.set(key, path);
    return path;
  }
  /** The sides of a piece of a part that face no piece of it (its part's
   *  outline there), as one path in cell units; null when none does. */
  function outerPathOf(p) {
    const mask = 15 & ~joinedMask(p);
    if (!mask) return null;
    const key = `o${p.id}/${mask}`;
    let path = paths.get(key);
    if (path) return path;
    path = new Path2D();
    for (let side = 0; side < 4; side++) if (mask & (1 << side)) path.addPath(toPath(sideOutline(roomOf(), p.id, side)));
    paths.set(key, path);
    return path;
  }

  /** A piece cut from the picture: style 0 loose (bevelled, dark outline), 1
   *  placed, 2 a piece of a part (the picture alone: beside its neighbours in
   *  the part it shows no seam; the part's outline is drawn around it all). */
  function spriteOf(p, style) {
    const room = roomOf();
    // A piece of a part is cut along its outer sides only (`joinedMask`).
    const mask = style === 2 ? joinedMask(p) : 0;
    const key = p.id * 64 + style * 16 + mask;
    let c = sprites.get(key);
    if (c) return c;
    const s = cut.side, pad = Math.ceil(s * PAD), size = s + 2 * pad;
    // Panning a zoomed-in big board cuts piece after piece: start afresh past the budget.
    if (pixels + size * size > SPRITE_PIXELS * 1.2) cut.forgetSprites();
    pixels += size * size;
    c = document.createElement('canvas');
    c.width = size; c.height = size;
    const g = c.getContext('2d');
    const pic = pictureOf();
    const path = style === 2 ? partClipOf(p.id, mask) : pathOf(p.id);
    const r = Math.floor(p.id / room.cols), col = p.id % room.cols;
    g.translate(pad, pad);
    g.scale(s, s);
    g.save();
    g.clip(path);
    if (pic) {
      const pw = pic.width / room.cols, ph = pic.height / room.rows;
      g.imageSmoothingQuality = 'high';
      g.drawImage(pic, (col - PAD) * pw, (r - PAD) * ph, pw * (1 + 2 * PAD), ph * (1 + 2 * PAD), -PAD, -PAD, 1 + 2 * PAD, 1 + 2 * PAD);
    } else {
      g.fillStyle = '#667';
      g.fillRect(-PAD, -PAD, 1 + 2 * PAD, 1 + 2 * PAD);
    }
    if (style === 0 && room.kind === 'jigsaw') {
      // A loose piece: a light bevel on the top left, a shade on the bottom right.
      g.lineWidth = 3 / s;
      g.strokeStyle = 'rgba(255,255,255,0.35)';
      g.translate(1 / s, 1 / s); g.stroke(path); g.translate(-2 / s, -2 / s);
      g.strokeStyle = 'rgba(0,0,0,0.35)'; g.stroke(path); g.translate(1 / s, 1 / s);
    }
    g.restore();
    g.lineWidth = Math.max(1, s / 64) / s;
    if (style === 2) { sprites.set(key, c); return c; }
    if (room.kind === 'swap') {
      g.strokeStyle = 'rgba(0,0,0,0.75)'; g.strokeRect(0, 0, 1, 1);
      g.strokeStyle = 'rgba(255,255,255,0.3)'; g.strokeRect(1.5 / s, 1.5 / s, 1 - 3 / s, 1 - 3 / s);
    } else {
      g.strokeStyle = style === 0 ? 'rgba(0,0,0,0.8)' : 'rgba(0,0,0,0.22)';
      g.stroke(path);
    }
    sprites.set(key, c);
    return c;
  }

  return cut;
}
