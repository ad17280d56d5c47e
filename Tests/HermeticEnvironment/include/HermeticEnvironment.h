// Nothing to call: the library sets the test bundle's environment when it is loaded.
