// PuzzleClient module
