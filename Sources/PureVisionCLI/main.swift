print("purevision")
