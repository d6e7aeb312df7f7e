"""`python -m simkit`: the same command line as the `simkit` script."""

from simkit.launch import main

if __name__ == "__main__":
    main()
