// libsystemc.so refers to sc_main; the fuzz targets never start a SystemC simulation.
extern "C" int sc_main(int, char**) { return 0; }
