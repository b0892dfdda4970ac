print("puzzle")
