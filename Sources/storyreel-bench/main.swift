print("storyreel-bench: renderer not yet built")
