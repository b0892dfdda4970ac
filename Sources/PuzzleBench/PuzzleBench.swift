// PuzzleBench module
