/// Reads the orientation tag (0x0112) from an APP1 `Exif` segment: how the
/// camera was held, so the picture can be turned upright. A damaged or
/// missing EXIF block means "as stored" (1): it never spoils the picture.
enum EXIFOrientation {
    static func read(_ segment: ArraySlice<UInt8>) -> Int {
        let s = Array(segment)
        guard s.count >= 14, s[0..<6].elementsEqual([0x45, 0x78, 0x69, 0x66, 0, 0]) else { return 1 }
        let tiff = 6
        let little: Bool
        switch (s[tiff], s[tiff + 1]) {
        case (0x49, 0x49): little = true
        case (0x4D, 0x4D): little = false
        default: return 1
        }
        func u16(_ i: Int) -> Int? {
            guard i >= 0, i + 2 <= s.count else { return nil }
            return little ? Int(s[i]) | Int(s[i + 1]) << 8 : Int(s[i]) << 8 | Int(s[i + 1])
        }
        func u32(_ i: Int) -> Int? {
            guard let a = u16(i), let b = u16(i + 2) else { return nil }
            return little ? a | b << 16 : a << 16 | b
        }
        guard u16(tiff + 2) == 42, let ifd = u32(tiff + 4), let entries = u16(tiff + ifd) else { return 1 }
        for e in 0 ..< min(entries, 512) {
            let at = tiff + ifd + 2 + e * 12
            guard let tag = u16(at) else { return 1 }
            if tag == 0x0112 {
                guard u16(at + 2) == 3, let value = u16(at + 8), (1...8).contains(value) else { return 1 }
                return value
            }
        }
        return 1
    }
}
