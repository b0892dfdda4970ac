// Pictures drawn from formulas, so a server needs no image files. Each one is
// a scene with objects a person recognises (boats, a house, lit windows,
// fruit), and every region carries texture or shading that changes with
// position (waves, lawn stripes, window grids, checks, gradients), so that a
// piece's picture tells where it belongs: PictureBuiltinTests measures that no
// two pieces look alike. Drawn in relative coordinates with SceneDrawing's
// IEEE-exact helpers, so results are bit-for-bit the same on every machine.

private typealias C = SceneColour
private typealias D = SceneDrawing

extension Picture {
    /// Names accepted by `builtin(_:width:height:)`. The names predate the
    /// scenes (configs and transcripts use them), so they describe the old
    /// gradients rather than what is drawn now; see `builtin` for the scenes.
    public static let builtinNames: [String] = ["sunset", "rings", "quilt", "waves"]

    /// A procedurally drawn picture at any size, or nil for an unknown name
    /// or a size outside the limits (`maxSide`, `maxPixelCount`).
    ///
    /// The drawing is defined in relative coordinates (it stretches with the
    /// aspect ratio), so the same name looks alike at every size, and it is
    /// deterministic. To cut it into `rows` × `cols` pieces, ask for at least
    /// `cols` × `rows` pixels (a few pixels per piece look better).
    ///
    /// - `sunset`: a harbour at sunset: sky, sun, clouds, gulls, a striped
    ///   lighthouse on rocks, boats with red, yellow, blue and green sails.
    /// - `rings`: a garden: a tree, a house with a red roof and windows, a
    ///   white picket fence, a striped lawn and flowers of many colours.
    /// - `quilt`: a city at dusk: moon and stars, a skyline of buildings with
    ///   grids of lit windows, reflected in a river.
    /// - `waves`: a fruit still life: apples, oranges, grapes and a banana in
    ///   and around a blue bowl on a red checked tablecloth, a framed picture
    ///   on striped wallpaper.
    public static func builtin(_ name: String, width: Int, height: Int) -> Picture? {
        let paint: (Double, Double) -> SceneColour
        switch name {
        case "sunset": paint = harbour
        case "rings": paint = garden
        case "quilt": paint = { city($0, $1, reflected: false) }
        case "waves": paint = fruit
        default: return nil
        }
        guard (try? validate(width: width, height: height)) != nil else { return nil }
        let w = Double(width), h = Double(height)
        return try? Picture(width: width, height: height) { x, y in
            // Pixel centres, so a picture and its scaled copy sample the same spots.
            let u = (Double(x) + 0.5) / w, v = (Double(y) + 0.5) / h
            // Canvas grain on a fixed relative grid: a painted look, and the last
            // guarantee that two plain stretches of sky or wall still differ.
            let grain = 0.12 * (D.hash(D.cell(u, 128), D.cell(v, 128), 99) - 0.5)
            return paint(u, v).adding(SceneColour(grain, grain, grain)).rgb
        }
    }

    // MARK: Harbour ("sunset")

    private static func harbour(_ u: Double, _ v: Double) -> SceneColour {
        let horizon = 0.58
        let sun = (u: 0.72, v: 0.40)
        var c: C
        if v < horizon {
            c = C.ramp([C(0.10, 0.14, 0.42), C(0.32, 0.30, 0.66), C(0.86, 0.48, 0.55), C(0.99, 0.74, 0.38)], at: v / horizon)
            // Cooler away from the sun, so sky pieces differ across as well as down.
            c = c.adding(C(0.16 * (u - 0.5), 0.04 * (u - 0.5), -0.22 * (u - 0.5)))
            let glow = D.ellipse(u, v, sun.u, sun.v, 0.07, 0.07)
            // Thin wisps of haze, denser near the horizon, wavering along their length.
            let wisp = D.wave(v * 34 + 1.5 * D.wave(u * 2.3 + 0.1))
            c = c.scaled(by: 1 - 0.10 * (v / horizon) * (wisp > 0.3 ? 1 : 0))
            if glow < 16 { c = c.mixed(with: C(1, 0.88, 0.55), by: 0.55 * (1 - glow / 16) * (1 - glow / 16)) }
            if glow <= 1 { c = C(1, 0.92 - 0.15 * glow, 0.45) }
            // Clouds: lumps of ellipses, lit from below by the sun.
            for (cu, cv, s) in [(0.22, 0.14, 1.0), (0.52, 0.24, 0.8), (0.90, 0.11, 0.9), (0.38, 0.38, 0.6)] {
                for (du, dv, ru, rv) in [(-0.06, 0.01, 0.055, 0.030), (0.0, -0.01, 0.07, 0.045), (0.065, 0.012, 0.05, 0.028)] {
                    let d = D.ellipse(u, v, cu + du * s, cv + dv * s, ru * s, rv * s)
                    if d <= 1 {
                        let lower = (v - (cv - 0.05 * s)) / (0.09 * s)
                        c = C(0.98, 0.92, 0.93).mixed(with: C(0.95, 0.62, 0.55), by: min(max(lower, 0), 1) * 0.8)
                    }
                }
            }
            // Gulls: little V shapes.
            for (gu, gv, s) in [(0.30, 0.28, 0.022), (0.36, 0.24, 0.016), (0.62, 0.10, 0.02)] {
                let left = D.distanceToSegment(u, v, (gu - s, gv - 0.5 * s), (gu, gv))
                let right = D.distanceToSegment(u, v, (gu, gv), (gu + s, gv - 0.5 * s))
                if min(left, right) < 0.004 { c = C(0.15, 0.12, 0.2) }
            }
        } else {
            let depth = (v - horizon) / (1 - horizon)
            c = C.ramp([C(0.36, 0.50, 0.68), C(0.08, 0.30, 0.50), C(0.02, 0.14, 0.32)], at: depth)
            c = c.adding(C(0.08 * (u - 0.5), 0.05 * (0.5 - u), 0))
            // Wave bands widen towards the viewer and wobble along their length.
            let w = D.wave(depth.squareRoot() * 13 + 0.18 * D.wave(u * 3.3 + depth * 4))
            c = c.scaled(by: 0.82 + 0.22 * w)
            // The sun's glitter path on the water.
            let half = 0.03 + 0.09 * depth
            let off = abs(u - sun.u) / half
            if off < 1 && w > -0.2 { c = c.mixed(with: C(1, 0.82, 0.45), by: 0.75 * (1 - off)) }
        }
        // Boats, far to near, each with a hull, mast, mainsail and jib.
        let boats: [(u: Double, v: Double, s: Double, sail: C)] = [
            (0.50, 0.63, 0.06, C(0.2, 0.75, 0.35)), (0.36, 0.71, 0.09, C(0.88, 0.15, 0.15)),
            (0.62, 0.80, 0.12, C(0.98, 0.82, 0.15)), (0.86, 0.91, 0.15, C(0.15, 0.35, 0.90)),
        ]
        for boat in boats { c = Self.boat(u, v, boat.u, boat.v, boat.s, boat.sail, over: c) }
        // Rocks, then the lighthouse standing on them.
        let rock = D.ellipse(u, v, 0.12, 0.84, 0.19, 0.13)
        if rock <= 1 {
            let speckle = D.hash(D.cell(u, 60), D.cell(v, 60), 7)
            c = C(0.34, 0.28, 0.24).scaled(by: 0.7 + 0.3 * (1 - rock) + 0.2 * speckle)
        }
        return lighthouse(u, v, over: c)
    }

    private static func boat(_ u: Double, _ v: Double, _ bu: Double, _ bv: Double, _ s: Double, _ sail: C, over c: C) -> C {
        // Hull: wider at the deck, a trapezoid.
        let deep = 0.22 * s
        if v >= bv && v < bv + deep {
            let half = s * (0.55 - 0.25 * (v - bv) / deep)
            if abs(u - bu) < half { return v < bv + 0.3 * deep ? C(0.95, 0.95, 0.9) : C(0.45, 0.22, 0.12) }
        }
        if abs(u - bu) < max(0.004, 0.05 * s) && v < bv && v >= bv - 0.95 * s { return C(0.3, 0.2, 0.12) }
        let gap = 0.06 * s
        if D.inTriangle(u, v, (bu + gap, bv - 0.9 * s), (bu + gap, bv - 0.06 * s), (bu + 0.5 * s, bv - 0.06 * s)) {
            // Shaded across the sail so it reads as cloth.
            return sail.scaled(by: 0.8 + 0.25 * (u - bu) / (0.5 * s))
        }
        if D.inTriangle(u, v, (bu - gap, bv - 0.8 * s), (bu - gap, bv - 0.06 * s), (bu - 0.35 * s, bv - 0.06 * s)) {
            return sail.mixed(with: C(1, 1, 1), by: 0.45)
        }
        return c
    }

    private static func lighthouse(_ u: Double, _ v: Double, over c: C) -> C {
        let centre = 0.13, top = 0.30, bottom = 0.80
        if v >= top && v < bottom {
            let t = (v - top) / (bottom - top)
            let half = 0.032 + 0.028 * t
            let across = (u - centre) / half
            if abs(across) < 1 {
                let band = D.cell(t, 6)
                let paint = band % 2 == 0 ? C(0.88, 0.12, 0.14) : C(0.97, 0.96, 0.92)
                // Lit from the sunny right side.
                let lit = paint.scaled(by: 0.72 + 0.28 * (across + 1) / 2)
                // A door at the foot.
                if t > 0.86 && abs(u - centre) < 0.014 { return C(0.25, 0.15, 0.1) }
                return lit
            }
        }
        if D.inBox(u, v, centre - 0.048, top - 0.02, centre + 0.048, top) { return C(0.15, 0.15, 0.18) }
        if D.inBox(u, v, centre - 0.026, top - 0.075, centre + 0.026, top - 0.02) {
            return abs(u - centre) < 0.004 ? C(0.2, 0.2, 0.2) : C(1, 0.95, 0.55)
        }
        if D.inTriangle(u, v, (centre - 0.036, top - 0.075), (centre + 0.036, top - 0.075), (centre, top - 0.125)) {
            return C(0.75, 0.1, 0.12)
        }
        // The lamp's beam, pale and fading towards the sea.
        if D.inTriangle(u, v, (centre + 0.026, top - 0.048), (0.48, top - 0.13), (0.48, top + 0.02)) {
            let fade = 1 - (u - centre) / 0.35
            return c.mixed(with: C(1, 0.97, 0.7), by: 0.5 * fade)
        }
        return c
    }

    // MARK: Garden ("rings")

    private static func garden(_ u: Double, _ v: Double) -> SceneColour {
        let hills = 0.44 + 0.04 * D.wave(u * 1.4 + 0.2) + 0.02 * D.wave(u * 3.7)
        var c: C
        if v < hills {
            c = C.ramp([C(0.25, 0.50, 0.90), C(0.55, 0.75, 0.97), C(0.85, 0.92, 0.98)], at: v / 0.45)
            c = c.adding(C(0.1 * (0.5 - u), 0.05 * (u - 0.5), 0.1 * (u - 0.5)))
            let sun = D.ellipse(u, v, 0.08, 0.09, 0.05, 0.05)
            if sun < 5 { c = c.mixed(with: C(1, 0.98, 0.75), by: 0.6 * (1 - sun / 5)) }
            if sun <= 1 { c = C(1, 0.88, 0.2) }
            for (cu, cv) in [(0.42, 0.10), (0.72, 0.07), (0.30, 0.25)] {
                if D.inEllipse(u, v, cu, cv, 0.07, 0.03) || D.inEllipse(u, v, cu + 0.03, cv - 0.02, 0.04, 0.03) {
                    c = C(1, 1, 1).scaled(by: 0.92 + 0.08 * (cv - v) / 0.03)
                }
            }
            if v > hills - 0.06 {
                c = C(0.35, 0.55, 0.45).scaled(by: 0.9 + 0.1 * D.wave(u * 9))
            }
        } else {
            // Lawn: mown diagonal stripes of two greens, darker towards the front.
            let stripe = D.wave((u * 0.8 + v) * 7)
            c = C(0.30 + 0.1 * u, 0.62 - 0.25 * (v - 0.45), 0.22).scaled(by: 0.88 + 0.12 * stripe)
            // Blades of grass: short vertical streaks.
            let blade = D.hash(D.cell(u, 90), D.cell(v, 30), 3)
            if blade < 0.3 { c = c.scaled(by: 0.85) }
        }
        c = house(u, v, over: c)
        c = tree(u, v, over: c)
        c = fence(u, v, over: c)
        return flowers(u, v, over: c)
    }

    private static func house(_ u: Double, _ v: Double, over c: C) -> C {
        let left = 0.55, right = 0.90, eaves = 0.30, ground = 0.66
        if D.inBox(u, v, 0.80, 0.14, 0.84, 0.26) { return C(0.55, 0.25, 0.2) }
        if D.inTriangle(u, v, (left - 0.03, eaves), (right + 0.03, eaves), ((left + right) / 2, 0.12)) {
            // Rows of tiles.
            let row = D.fraction((v - 0.12) / 0.03)
            return C(0.78, 0.2, 0.15).scaled(by: row < 0.2 ? 0.7 : 1 - 0.15 * (v - 0.12) / 0.18)
        }
        guard D.inBox(u, v, left, eaves, right, ground) else { return c }
        // Door with a knob.
        if D.inBox(u, v, 0.695, 0.50, 0.745, ground) {
            return D.inEllipse(u, v, 0.735, 0.58, 0.005, 0.007) ? C(0.95, 0.8, 0.2) : C(0.35, 0.55, 0.25)
        }
        // Four windows: blue panes, white crossbars, lit by the sky.
        for (wu, wv) in [(0.60, 0.35), (0.78, 0.35), (0.60, 0.50), (0.78, 0.50)] {
            if D.inBox(u, v, wu - 0.005, wv - 0.005, wu + 0.085, wv + 0.095) {
                let inU = u - wu, inV = v - wv
                if inU < 0 || inV < 0 || inU > 0.08 || inV > 0.09 || abs(inU - 0.04) < 0.005 || abs(inV - 0.045) < 0.005 {
                    return C(0.97, 0.97, 0.95)
                }
                return C(0.45, 0.65, 0.9).mixed(with: C(0.8, 0.9, 1), by: inV / 0.09)
            }
        }
        // Cream walls with a brick course at the bottom.
        if v > ground - 0.04 { return C(0.6, 0.35, 0.28).scaled(by: D.fraction(u / 0.025) < 0.12 ? 0.75 : 1) }
        // Clapboard siding: a dark line under each board, and light falling off downwards.
        let board = D.fraction((v - eaves) / 0.027)
        return C(0.96, 0.88, 0.65).scaled(by: (board > 0.8 ? 0.8 : 0.95) + 0.12 * (u - left) / (right - left) - 0.25 * (v - eaves))
    }

    private static func tree(_ u: Double, _ v: Double, over c: C) -> C {
        if D.inBox(u, v, 0.165, 0.32, 0.215, 0.70) {
            let bark = D.fraction((u - 0.165) / 0.0125)
            return C(0.45, 0.28, 0.15).scaled(by: bark < 0.3 ? 0.75 : 1)
        }
        let lumps: [(Double, Double, Double)] = [
            (0.19, 0.16, 0.10), (0.11, 0.25, 0.09), (0.27, 0.25, 0.095), (0.19, 0.30, 0.10), (0.13, 0.12, 0.07), (0.26, 0.12, 0.07),
        ]
        for (index, (lu, lv, r)) in lumps.enumerated() where D.inEllipse(u, v, lu, lv, r, r * 1.1) {
            // Each lump shaded from its upper left, so the crown has depth.
            let d = D.ellipse(u, v, lu - 0.3 * r, lv - 0.3 * r, r * 1.3, r * 1.4)
            var green = C(0.18 + 0.03 * Double(index), 0.55 - 0.03 * Double(index), 0.18).scaled(by: 1.15 - 0.45 * min(d, 1.2))
            // Red apples in the crown.
            for (au, av) in [(0.15, 0.22), (0.24, 0.28), (0.20, 0.11), (0.10, 0.29)] where D.inEllipse(u, v, au, av, 0.014, 0.016) {
                green = C(0.9, 0.12, 0.1)
            }
            return green
        }
        return c
    }

    private static func fence(_ u: Double, _ v: Double, over c: C) -> C {
        let top = 0.60, bottom = 0.76
        guard v >= top - 0.03 && v < bottom else { return c }
        let pitch = 0.045
        let slot = D.fraction(u / pitch)
        let picket = slot > 0.2 && slot < 0.8
        let within = abs(slot - 0.5) / 0.3
        // Pointed tops: a picket's top edge rises towards its middle.
        let tip = top - 0.03 * (1 - within)
        let shade = 0.85 + 0.15 * (1 - within) - 0.1 * (v - top) / (bottom - top)
        if picket && v >= tip { return C(0.98, 0.97, 0.93).scaled(by: shade) }
        if abs(v - (top + 0.035)) < 0.01 || abs(v - (bottom - 0.035)) < 0.01 { return C(0.9, 0.89, 0.85) }
        return c
    }

    private static func flowers(_ u: Double, _ v: Double, over c: C) -> C {
        guard v > 0.72 else { return c }
        let palette = [C(0.92, 0.1, 0.15), C(0.98, 0.85, 0.1), C(0.6, 0.2, 0.85), C(1, 0.5, 0.75),
                       C(1, 0.55, 0.1), C(0.98, 0.98, 0.98), C(0.2, 0.4, 0.95)]
        // Flowers sit in a jittered grid; look at this cell and its neighbours.
        let columns = 11, rows = 3
        let column = D.cell(u, columns), row = D.cell((v - 0.72) / 0.28, rows)
        for dr in -1...1 {
            for dc in -1...1 {
                let fc = column + dc, fr = row + dr
                guard fc >= 0 && fc < columns && fr >= 0 && fr < rows else { continue }
                let fu = (Double(fc) + 0.25 + 0.5 * D.hash(fc, fr, 1)) / Double(columns)
                let fv = 0.72 + 0.28 * (Double(fr) + 0.3 + 0.45 * D.hash(fc, fr, 2)) / Double(rows)
                let r = 0.018 + 0.008 * Double(fr)
                let colour = palette[min(Int(D.hash(fc, fr, 4) * Double(palette.count)), palette.count - 1)]
                if D.inEllipse(u, v, fu, fv, r * 0.35, r * 0.35) { return C(0.95, 0.75, 0.1).mixed(with: C(0.5, 0.3, 0.1), by: 0.4) }
                let petal = D.inEllipse(u, v, fu - r * 0.55, fv, r * 0.5, r * 0.4) || D.inEllipse(u, v, fu + r * 0.55, fv, r * 0.5, r * 0.4)
                    || D.inEllipse(u, v, fu, fv - r * 0.55, r * 0.4, r * 0.5) || D.inEllipse(u, v, fu, fv + r * 0.55, r * 0.4, r * 0.5)
                if petal { return colour.scaled(by: 0.85 + 0.15 * (fv - v + r) / (2 * r)) }
                if abs(u - fu) < 0.003 && v > fv && v < fv + 2.5 * r { return C(0.15, 0.45, 0.12) }
            }
        }
        return c
    }

    // MARK: City at dusk ("quilt")

    private static func city(_ u: Double, _ v: Double, reflected: Bool) -> SceneColour {
        let shore = 0.82
        if v >= shore && !reflected {
            // The river mirrors the city, rippled sideways and darkened.
            let depth = (v - shore) / (1 - shore)
            let ripple = 0.012 * D.wave(depth * 9 + 0.3) * (0.4 + depth)
            let mirrored = city(min(max(u + ripple, 0), 1), 2 * shore - v, reflected: true)
            let water = C(0.05, 0.08, 0.2).adding(C(0.05 * u, 0, 0.1 * depth))
            let streak = D.wave(depth * 23) > 0.7 ? 0.25 : 0.0
            return mirrored.mixed(with: water, by: 0.45 + 0.3 * depth + streak)
        }
        var c = C.ramp([C(0.04, 0.04, 0.18), C(0.22, 0.12, 0.40), C(0.70, 0.30, 0.45), C(0.98, 0.58, 0.30)], at: v / shore)
        c = c.adding(C(0.2 * (u - 0.5), 0.05 * (0.5 - u), 0.2 * (0.5 - u)))
        // Stars in the upper sky: most cells of a coarse grid hold one, at a hashed spot.
        if v < 0.55 {
            let su = D.cell(u, 21), sv = D.cell(v / 0.55, 9)
            if D.hash(su, sv, 11) < 0.85 {
                let cu = (Double(su) + 0.2 + 0.6 * D.hash(su, sv, 12)) / 21
                let cv = 0.55 * (Double(sv) + 0.2 + 0.6 * D.hash(su, sv, 13)) / 9
                let size = 0.006 + 0.006 * D.hash(su, sv, 14)
                let d = D.ellipse(u, v, cu, cv, size, size * 1.2)
                if d <= 1 { c = c.mixed(with: C(1, 1, 0.9), by: (1.1 - v) * (1 - 0.5 * d)) }
            }
        }
        // A crescent moon with a halo.
        let moon = D.ellipse(u, v, 0.80, 0.16, 0.065, 0.065)
        if moon < 4 { c = c.mixed(with: C(0.6, 0.6, 0.8), by: 0.3 * (1 - moon / 4)) }
        if moon <= 1 && D.ellipse(u, v, 0.835, 0.13, 0.06, 0.06) > 1 { c = C(0.98, 0.95, 0.78) }
        // Far skyline: a dark band of blocks of hashed heights with a few dim windows.
        let farColumn = D.cell(u, 23)
        let farTop = 0.42 + 0.18 * D.hash(farColumn, 0, 21)
        if v > farTop {
            c = C(0.16, 0.13, 0.28).adding(C(0.04 * u, 0, 0.05 * (1 - u)))
            let wu = D.cell(u, 23 * 5), wv = D.cell(v, 60)
            if wu % 5 != 0 && wv % 2 == 1 && D.hash(wu, wv, 22) < 0.25 { c = C(0.75, 0.6, 0.35) }
        }
        // Near buildings: (left, right, top, wall colour).
        let buildings: [(Double, Double, Double, C)] = [
            (0.00, 0.10, 0.50, C(0.30, 0.25, 0.35)), (0.08, 0.21, 0.34, C(0.20, 0.25, 0.40)),
            (0.21, 0.30, 0.56, C(0.42, 0.26, 0.25)), (0.30, 0.41, 0.26, C(0.25, 0.30, 0.30)),
            (0.43, 0.52, 0.46, C(0.35, 0.22, 0.38)), (0.52, 0.64, 0.38, C(0.18, 0.20, 0.30)),
            (0.64, 0.72, 0.60, C(0.45, 0.35, 0.22)), (0.72, 0.86, 0.44, C(0.24, 0.18, 0.28)),
            (0.86, 1.00, 0.54, C(0.32, 0.30, 0.42)),
        ]
        for (index, (left, right, top, wall)) in buildings.enumerated().reversed() where u >= left && u < right {
            // A spire on the tallest, an antenna on another.
            if index == 3 && D.inTriangle(u, v, (left + 0.01, top), (right - 0.01, top), ((left + right) / 2, top - 0.10)) {
                return C(0.55, 0.6, 0.65).scaled(by: 0.8 + 0.4 * (u - left) / (right - left))
            }
            if index == 1 && abs(u - 0.15) < 0.003 && v > top - 0.09 && v < top { return C(0.7, 0.2, 0.2) }
            guard v >= top else { continue }
            // Windows in a grid; whether each is lit is fixed by a hash.
            let wu = (u - left) / 0.022, wv = (v - top) / 0.032
            let fu = D.fraction(wu), fv = D.fraction(wv)
            if fu > 0.3 && fu < 0.85 && fv > 0.3 && fv < 0.8 && (right - u) > 0.008 {
                let lit = D.hash(Int(wu), Int(wv), index)
                if lit < 0.55 { return C(1, 0.80, 0.35).mixed(with: C(1, 0.95, 0.7), by: lit / 0.55) }
                return C(0.08, 0.10, 0.2)
            }
            return wall.scaled(by: 0.8 + 0.35 * (u - left) / (right - left))
        }
        return c
    }

    // MARK: Fruit still life ("waves")

    private static func fruit(_ u: Double, _ v: Double) -> SceneColour {
        let tableEdge = 0.46
        var c: C
        if v < tableEdge {
            // Striped wallpaper, lit by a window off to the right.
            let stripe = D.fraction(u / 0.07)
            c = stripe < 0.5 ? C(0.35, 0.55, 0.50) : C(0.85, 0.80, 0.62)
            if abs(stripe - 0.75) < 0.06 && D.fraction(v / 0.045) < 0.5 { c = C(0.8, 0.3, 0.3) }
            // Daylight from a window up and to the right.
            let light = D.ellipse(u, v, 1.0, 0.0, 0.9, 0.6)
            c = c.scaled(by: 1.1 - 0.45 * min(light, 1.2))
            // A framed painting of a mountain.
            if D.inBox(u, v, 0.08, 0.06, 0.34, 0.34) {
                if !D.inBox(u, v, 0.10, 0.085, 0.32, 0.315) { return C(0.75, 0.58, 0.2).scaled(by: 0.8 + 0.6 * (u - 0.08)) }
                if D.inTriangle(u, v, (0.12, 0.315), (0.30, 0.315), (0.20, 0.14)) {
                    return v < 0.19 ? C(0.95, 0.95, 1) : C(0.3, 0.45, 0.3).scaled(by: 0.8 + (u - 0.12))
                }
                if D.inEllipse(u, v, 0.27, 0.13, 0.02, 0.025) { return C(1, 0.9, 0.4) }
                let hill = 0.28 + 0.02 * D.wave(u * 14)
                if v > hill { return C(0.45, 0.65, 0.3).scaled(by: 1.2 - (u - 0.1) * 2) }
                return C(0.45, 0.65, 0.95).mixed(with: C(0.98, 0.8, 0.65), by: (v - 0.085) / 0.23 + (u - 0.2))
            }
        } else {
            // Gingham: red where a red stripe runs each way, pink where one does.
            let across = D.fraction(u / 0.075) < 0.5
            let down = D.fraction((v - tableEdge) / (0.04 + 0.06 * (v - tableEdge))) < 0.5
            c = across && down ? C(0.80, 0.10, 0.12) : (across || down ? C(0.95, 0.55, 0.55) : C(0.98, 0.96, 0.94))
            c = c.scaled(by: 0.78 + 0.22 * u + 0.1 * (v - tableEdge))
            // Shadow of the edge of the table where the cloth hangs down.
            if v > 0.93 { c = c.scaled(by: 0.7 + 0.15 * D.wave(u * 12)) }
        }
        // Shadows on the cloth under the bowl and the fruit in front.
        if D.inEllipse(u, v, 0.53, 0.77, 0.27, 0.05) || D.inEllipse(u, v, 0.21, 0.84, 0.12, 0.03)
            || D.inEllipse(u, v, 0.86, 0.82, 0.10, 0.03) {
            c = c.scaled(by: 0.7)
        }
        // Grapes heaped at the back of the bowl.
        let grapes: [(Double, Double)] = [
            (0.34, 0.50), (0.38, 0.46), (0.41, 0.52), (0.36, 0.56), (0.44, 0.47), (0.40, 0.40),
            (0.45, 0.55), (0.33, 0.44), (0.48, 0.51), (0.42, 0.59), (0.37, 0.62),
        ]
        for (index, (gu, gv)) in grapes.enumerated() {
            if let shaded = Self.sphere(u, v, gu, gv, 0.025, 0.033, C(0.45, 0.15, 0.5).scaled(by: 0.9 + 0.03 * Double(index % 4))) {
                c = shaded
            }
        }
        if abs(u - 0.39 - 0.3 * (0.38 - v)) < 0.004 && v > 0.33 && v < 0.38 { c = C(0.35, 0.5, 0.2) }
        // Oranges in the bowl, with dimpled peel.
        for (ou, ov, r) in [(0.60, 0.50, 0.085), (0.52, 0.58, 0.08)] {
            if var peel = Self.sphere(u, v, ou, ov, r, r * 1.25, C(0.98, 0.55, 0.08)) {
                if D.hash(D.cell(u, 200), D.cell(v, 150), 31) < 0.2 { peel = peel.scaled(by: 0.92) }
                c = peel
            }
        }
        if D.inTriangle(u, v, (0.60, 0.395), (0.66, 0.37), (0.63, 0.40)) { c = C(0.2, 0.55, 0.2) }
        // The bowl: a blue half ellipse with a white band, its rim an ellipse.
        if v > 0.62 && D.inEllipse(u, v, 0.52, 0.62, 0.24, 0.15) {
            let band = abs(v - 0.68) < 0.012
            c = band ? C(0.95, 0.95, 0.95) : C(0.15, 0.30, 0.75).scaled(by: 0.7 + 0.5 * (1 - abs(u - 0.46) / 0.3))
        }
        if abs(D.ellipse(u, v, 0.52, 0.62, 0.24, 0.03) - 1) < 0.25 && v > 0.6 { c = C(0.1, 0.2, 0.55) }
        // Apples in front, red and green, with stems and a leaf.
        for (au, av, r, skin) in [(0.20, 0.76, 0.085, C(0.85, 0.1, 0.12)), (0.86, 0.74, 0.08, C(0.55, 0.8, 0.2)),
                                  (0.32, 0.83, 0.07, C(0.75, 0.15, 0.1))] {
            if let shaded = Self.sphere(u, v, au, av, r, r * 1.2, skin) { c = shaded }
            if abs(u - au - 0.2 * (av - r * 1.15 - v)) < 0.004 && v < av - r * 1.05 && v > av - r * 1.45 { c = C(0.35, 0.2, 0.1) }
            if D.inEllipse(u, v, au + 0.018, av - r * 1.3, 0.014, 0.008) { c = C(0.2, 0.6, 0.2) }
        }
        // A banana lying on the cloth: a crescent between two ellipses.
        if D.inEllipse(u, v, 0.62, 0.80, 0.16, 0.09) && !D.inEllipse(u, v, 0.62, 0.75, 0.15, 0.08) && v > 0.78 {
            let tip = abs(u - 0.62) > 0.14
            c = tip ? C(0.35, 0.25, 0.1) : C(0.98, 0.85, 0.25).scaled(by: 0.85 + 0.3 * (0.89 - v) / 0.1)
        }
        return c
    }

    /// A round fruit lit from the upper left, or nil outside it.
    private static func sphere(_ u: Double, _ v: Double, _ cu: Double, _ cv: Double, _ ru: Double, _ rv: Double, _ colour: C) -> C? {
        let d = D.ellipse(u, v, cu, cv, ru, rv)
        guard d <= 1 else { return nil }
        let light = D.ellipse(u, v, cu - 0.35 * ru, cv - 0.35 * rv, 0.3 * ru, 0.3 * rv)
        if light < 1 { return colour.mixed(with: C(1, 1, 1), by: 0.55 * (1 - light)) }
        let lower = (v - cv) / rv + (u - cu) / ru
        return colour.scaled(by: 1.05 - 0.25 * d - 0.12 * lower)
    }
}
