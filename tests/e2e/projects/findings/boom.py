def lookup():
    data = {}
    return data["key"]


lookup()
