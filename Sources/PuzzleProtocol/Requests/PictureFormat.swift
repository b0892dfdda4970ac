/// How `PICTURE` sends a room's picture: `png`, lossless (the pixels hash to
/// the snapshot's `S picture` hash), or `jpeg`, about a fifth of the bytes
/// for a photo or a grainy scene, close to the pixels but not exact (the
/// client files it under the hash the reply names).
public enum PictureFormat: String, Hashable, Sendable, CaseIterable {
    case png
    case jpeg
}
