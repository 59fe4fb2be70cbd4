import FerryCommandLine

FerryCLI.main()
