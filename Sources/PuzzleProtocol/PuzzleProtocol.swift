// PuzzleProtocol module
