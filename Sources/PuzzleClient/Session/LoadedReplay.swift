import PuzzleCore

/// A solved puzzle's replay as the server sent it (`REPLAY`), with its
/// picture and the speed the player asked for: what the full screen plays.
public struct LoadedReplay: Equatable, Sendable {
    public var replay: PuzzleReplay
    public var picture: Picture?
    /// Times the play's pace (nil: the default).
    public var speed: Int?

    public init(replay: PuzzleReplay, picture: Picture?, speed: Int?) {
        self.replay = replay
        self.picture = picture
        self.speed = speed
    }
}
