"""The command line (launch, cli) and the commands that are not sweeps: bench, profiling,
replay. The top layer: nothing imports it but `python -m simkit`."""
