// Shape tests and textures for the built-in scenes. Everything works in
// relative coordinates (u across, v down, both 0...1), so a scene looks the
// same at every size, and uses only +, -, *, /, squareRoot and rounding: those
// are exact or correctly rounded by IEEE 754, so every machine draws the same
// bits (libm's sin/cos/pow are not, and the core avoids Foundation anyway).

/// Geometry and texture helpers for drawing scenes one pixel at a time.
enum SceneDrawing {
    /// True inside the ellipse centred at (`cu`, `cv`) with radii `ru`, `rv`.
    static func inEllipse(_ u: Double, _ v: Double, _ cu: Double, _ cv: Double, _ ru: Double, _ rv: Double) -> Bool {
        ellipse(u, v, cu, cv, ru, rv) <= 1
    }

    /// The squared normalised distance from the ellipse's centre: 1 on its edge.
    static func ellipse(_ u: Double, _ v: Double, _ cu: Double, _ cv: Double, _ ru: Double, _ rv: Double) -> Double {
        let du = (u - cu) / ru
        let dv = (v - cv) / rv
        return du * du + dv * dv
    }

    /// True inside the axis-aligned box [u0, u1) × [v0, v1).
    static func inBox(_ u: Double, _ v: Double, _ u0: Double, _ v0: Double, _ u1: Double, _ v1: Double) -> Bool {
        u >= u0 && u < u1 && v >= v0 && v < v1
    }

    /// True inside the triangle (a, b, c), whichever way round it is given.
    static func inTriangle(_ u: Double, _ v: Double,
                           _ a: (Double, Double), _ b: (Double, Double), _ c: (Double, Double)) -> Bool {
        func side(_ p: (Double, Double), _ q: (Double, Double)) -> Double {
            (q.0 - p.0) * (v - p.1) - (q.1 - p.1) * (u - p.0)
        }
        let s1 = side(a, b), s2 = side(b, c), s3 = side(c, a)
        return (s1 >= 0 && s2 >= 0 && s3 >= 0) || (s1 <= 0 && s2 <= 0 && s3 <= 0)
    }

    /// Distance from (u, v) to the segment p–q, in the same (stretched) units.
    static func distanceToSegment(_ u: Double, _ v: Double, _ p: (Double, Double), _ q: (Double, Double)) -> Double {
        let du = q.0 - p.0, dv = q.1 - p.1
        let length = du * du + dv * dv
        let t = length > 0 ? min(max(((u - p.0) * du + (v - p.1) * dv) / length, 0), 1) : 0
        let eu = u - (p.0 + t * du), ev = v - (p.1 + t * dv)
        return (eu * eu + ev * ev).squareRoot()
    }

    /// 0 below `edge0`, 1 above `edge1`, a smooth cubic in between.
    static func smoothstep(_ edge0: Double, _ edge1: Double, _ x: Double) -> Double {
        let t = min(max((x - edge0) / (edge1 - edge0), 0), 1)
        return t * t * (3 - 2 * t)
    }

    /// A smooth periodic wave in -1...1 with period 1, shaped like a cosine
    /// (1 at whole numbers): a parabola-based stand-in, since the stdlib has no trig.
    static func wave(_ t: Double) -> Double {
        let f = fraction(t)
        // Two parabolas meeting at a quarter period with equal slope: within 6% of cos(2 pi t).
        let x = f < 0.5 ? f : 1 - f
        return x < 0.25 ? 1 - 16 * x * x : -1 + 16 * (0.5 - x) * (0.5 - x)
    }

    /// `t - floor(t)`, forced into 0..<1 (a tiny negative `t` would otherwise round to 1).
    static func fraction(_ t: Double) -> Double {
        let f = t - t.rounded(.down)
        return f < 1 ? f : 0
    }

    /// A cell index for `t` split into `count` cells, clamped into 0..<count so
    /// that t == 1 (or rounding) can never index past the end.
    static func cell(_ t: Double, _ count: Int) -> Int {
        let raw = (t * Double(count)).rounded(.down)
        guard raw.isFinite else { return 0 }
        return Int(min(max(raw, 0), Double(count - 1)))
    }

    /// A deterministic pseudo-random value in 0..<1 for integer coordinates:
    /// stars, lit windows and jitter that look random but never change.
    static func hash(_ a: Int, _ b: Int, _ seed: Int = 0) -> Double {
        var h = UInt64(truncatingIfNeeded: a) &* 0x9E37_79B9_7F4A_7C15
        h ^= UInt64(truncatingIfNeeded: b) &* 0xC2B2_AE3D_27D4_EB4F
        h ^= UInt64(truncatingIfNeeded: seed) &* 0x1656_67B1_9E37_79F9
        h ^= h >> 29
        h = h &* 0xBF58_476D_1CE4_E5B9
        h ^= h >> 32
        return Double(h >> 11) / Double(1 << 53)
    }
}
