// Pictures drawn from formulas, so a server needs no image files. Every
// picture mixes a gradient in two directions into its pattern: that way no
// two regions look alike, and a piece in the wrong cell stands out.
// Only stdlib Double arithmetic (no trigonometry: the stdlib has none), so
// results are bit-for-bit the same on every IEEE-754 machine.

extension Picture {
    /// Names accepted by `builtin(_:width:height:)`.
    public static let builtinNames: [String] = ["sunset", "rings", "quilt", "waves"]

    /// A procedurally drawn picture at any size, or nil for an unknown name
    /// or a size outside the limits (`maxSide`, `maxPixelCount`).
    ///
    /// The drawing is defined in relative coordinates, so the same name looks
    /// alike at every size, and it is deterministic. To cut it into
    /// `rows` × `cols` pieces, ask for at least `cols` × `rows` pixels
    /// (a few pixels per piece look better).
    ///
    /// - `sunset`: a diagonal indigo-to-gold sky with a soft sun glow.
    /// - `rings`: off-centre concentric rings of changing colour.
    /// - `quilt`: a patchwork of distinctly coloured squares with dark seams.
    /// - `waves`: interference stripes from two point sources.
    public static func builtin(_ name: String, width: Int, height: Int) -> Picture? {
        let paint: (Canvas.Point) -> Colour
        switch name {
        case "sunset": paint = sunset
        case "rings": paint = rings
        case "quilt": paint = quilt
        case "waves": paint = waves
        default: return nil
        }
        guard (try? validate(width: width, height: height)) != nil else { return nil }
        let canvas = Canvas(width: width, height: height)
        return try? Picture(width: width, height: height) { x, y in
            paint(canvas.point(x: x, y: y)).rgb
        }
    }

    private static func sunset(_ p: Canvas.Point) -> Colour {
        let sky: [Colour] = [
            Colour(0.10, 0.06, 0.32), Colour(0.42, 0.12, 0.52),
            Colour(0.88, 0.32, 0.36), Colour(0.98, 0.62, 0.22), Colour(0.96, 0.86, 0.42),
        ]
        var colour = Colour.ramp(sky, at: (p.u + p.v) / 2)
        // Across the diagonal: cooler towards the top right, warmer bottom left.
        let across = p.u - p.v
        colour.b += 0.2 * across
        colour.g -= 0.06 * across
        let glow = max(0, 1 - p.distance(toX: 0.94, y: 0.96) / 0.55)
        return colour.mixed(with: Colour(1, 0.95, 0.75), by: 0.45 * glow * glow)
    }

    private static func rings(_ p: Canvas.Point) -> Colour {
        let palette: [Colour] = [
            Colour(0.90, 0.20, 0.25), Colour(0.98, 0.62, 0.15), Colour(0.95, 0.90, 0.30),
            Colour(0.25, 0.70, 0.35), Colour(0.20, 0.50, 0.85), Colour(0.50, 0.30, 0.75),
        ]
        // Off centre, so the picture has no mirror symmetry.
        let radius = p.distance(toX: 0.43, y: 0.46) / 0.075
        let ring = Int(radius)
        let within = radius - Double(ring)
        var colour = palette[ring % palette.count]
        // Each ring darkens towards its outer edge, so adjacent rings of similar hue still separate.
        colour = colour.scaled(by: 1 - 0.35 * within)
        let tint = Colour(0.25 + 0.5 * p.u, 0.2 + 0.3 * p.v, 0.75 - 0.5 * p.u)
        return colour.mixed(with: tint, by: 0.3)
    }

    private static func quilt(_ p: Canvas.Point) -> Colour {
        // Square patches, seven along the longer side.
        let patchesPerSide = 7.0
        let gx = p.x * patchesPerSide
        let gy = p.y * patchesPerSide
        let column = Int(gx)
        let row = Int(gy)
        let fx = gx - Double(column)
        let fy = gy - Double(row)
        let seam = 0.07
        let gradient = Colour(0.1 * (p.u - 0.5), 0.08 * (p.v - p.u), 0.1 * (p.v - 0.5))
        if fx < seam || fx > 1 - seam || fy < seam || fy > 1 - seam {
            return Colour(0.16, 0.13, 0.12).adding(gradient)
        }
        // Golden-ratio steps spread the patch hues so no two neighbours are alike.
        let index = Double(row * 16 + column)
        let hue = (index * 0.618_033_988_75 + 0.08).fractionalPart
        let saturation = 0.45 + 0.4 * (index * 0.381_966 + 0.3).fractionalPart
        let value = 0.62 + 0.3 * (index * 0.754_877_666 + 0.5).fractionalPart
        var colour = Colour(hue: hue, saturation: saturation, value: value)
        // A faint diagonal stitch pattern inside each patch.
        if ((fx + fy) * 6).fractionalPart < 0.12 { colour = colour.scaled(by: 0.88) }
        return colour.adding(gradient)
    }

    private static func waves(_ p: Canvas.Point) -> Colour {
        let wavelength = 0.085
        let first = Self.smoothTriangle(p.distance(toX: 0.18, y: 0.28) / wavelength)
        let second = Self.smoothTriangle(p.distance(toX: 0.86, y: 0.74) / (wavelength * 1.3))
        let crest = (first + second) / 2
        let base = Colour(0.10 + 0.55 * p.u, 0.30 + 0.45 * p.v, 0.85 - 0.45 * p.u * p.v)
        let trough = base.scaled(by: 0.35)
        let foam = base.mixed(with: Colour(1, 1, 1), by: 0.35)
        return trough.mixed(with: foam, by: crest)
    }

    /// A smooth periodic bump in 0...1 with period 1: a stand-in for a
    /// cosine, which the standard library does not provide.
    private static func smoothTriangle(_ t: Double) -> Double {
        let triangle = abs(2 * t.fractionalPart - 1)
        return triangle * triangle * (3 - 2 * triangle)
    }
}

/// Maps pixel indices to relative coordinates.
private struct Canvas {
    struct Point {
        /// 0...1 across the width and height (not aspect-preserving).
        var u: Double
        var v: Double
        /// Scaled by the longer side, so circles and squares stay round and square.
        var x: Double
        var y: Double
        var longer: (width: Double, height: Double)

        /// Distance, in longer-side units, to a point given in `u`/`v` terms.
        func distance(toX cu: Double, y cv: Double) -> Double {
            let dx = x - cu * longer.width
            let dy = y - cv * longer.height
            return (dx * dx + dy * dy).squareRoot()
        }
    }

    let width: Double
    let height: Double
    let longerSide: Double

    init(width: Int, height: Int) {
        self.width = Double(width)
        self.height = Double(height)
        self.longerSide = Double(max(width, height))
    }

    func point(x: Int, y: Int) -> Point {
        // Pixel centres, so a picture and its scaled copy sample the same spots.
        let cx = Double(x) + 0.5
        let cy = Double(y) + 0.5
        return Point(u: cx / width, v: cy / height, x: cx / longerSide, y: cy / longerSide,
                     longer: (width / longerSide, height / longerSide))
    }
}

/// A colour with channels in 0...1 (clamped only when converted to `RGB`).
private struct Colour {
    var r: Double
    var g: Double
    var b: Double

    init(_ r: Double, _ g: Double, _ b: Double) {
        self.r = r
        self.g = g
        self.b = b
    }

    init(hue: Double, saturation: Double, value: Double) {
        let sector = hue * 6
        let index = Int(sector) % 6
        let f = sector - Double(Int(sector))
        let p = value * (1 - saturation)
        let q = value * (1 - saturation * f)
        let t = value * (1 - saturation * (1 - f))
        switch index {
        case 0: self.init(value, t, p)
        case 1: self.init(q, value, p)
        case 2: self.init(p, value, t)
        case 3: self.init(p, q, value)
        case 4: self.init(t, p, value)
        default: self.init(value, p, q)
        }
    }

    /// Piecewise-linear interpolation through evenly spaced `stops`, t in 0...1.
    static func ramp(_ stops: [Colour], at t: Double) -> Colour {
        let position = min(max(t, 0), 1) * Double(stops.count - 1)
        let index = min(Int(position), stops.count - 2)
        return stops[index].mixed(with: stops[index + 1], by: position - Double(index))
    }

    func mixed(with other: Colour, by t: Double) -> Colour {
        Colour(r + (other.r - r) * t, g + (other.g - g) * t, b + (other.b - b) * t)
    }

    func scaled(by factor: Double) -> Colour {
        Colour(r * factor, g * factor, b * factor)
    }

    func adding(_ other: Colour) -> Colour {
        Colour(r + other.r, g + other.g, b + other.b)
    }

    var rgb: RGB {
        RGB(r: Self.channel(r), g: Self.channel(g), b: Self.channel(b))
    }

    private static func channel(_ value: Double) -> UInt8 {
        UInt8((min(max(value, 0), 1) * 255).rounded())
    }
}

extension Double {
    /// `self - floor(self)`, in 0..<1.
    fileprivate var fractionalPart: Double {
        self - self.rounded(.down)
    }
}
