// PuzzleSystem module
