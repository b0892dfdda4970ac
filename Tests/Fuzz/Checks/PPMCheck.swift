import PuzzleCore

/// Pictures come from files named in the config. Decoding must refuse bad data
/// with a `PictureError` (never trap, never allocate for a size the data cannot
/// hold), and a decoded picture must come back unchanged through the P6 and P3 encoders.
enum PPMCheck {
    static func run(_ input: [UInt8]) throws(FuzzFailure) {
        let picture: Picture
        do { picture = try Picture(ppm: input) } catch { return }
        try require(picture.pixels.count == picture.width * picture.height, .ppm, "\(picture.pixels.count) pixels for \(picture.width)x\(picture.height)")
        for (format, bytes) in [("P6", picture.ppmP6()), ("P3", picture.ppmP3())] {
            let again: Picture
            do { again = try Picture(ppm: bytes) } catch {
                throw FuzzFailure(.ppm, "the \(format) encoding of a decoded \(picture.width)x\(picture.height) picture does not decode: \(error)")
            }
            try require(again == picture, .ppm, "a \(picture.width)x\(picture.height) picture changed through \(format)")
        }
    }
}
