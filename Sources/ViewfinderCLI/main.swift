import Viewfinder

print("viewfinder")
