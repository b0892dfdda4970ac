// PuzzleServer module
