#include "cli/app.h"

int main(int argc, char** argv) { return durprobe::cli::Main(argc, argv); }
