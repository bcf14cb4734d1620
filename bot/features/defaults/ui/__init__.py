"""The Discord side of server defaults: the private panel."""
