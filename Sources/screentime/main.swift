print("screentime")
