"""`python -m simkit`: the same command line as the `simkit` script."""

from simkit.commands.launch import main

if __name__ == "__main__":
    main()
