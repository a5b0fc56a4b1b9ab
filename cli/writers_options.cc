#include "cli/writers_options.h"

#include "cli/standard_options.h"
#include "cli/validators.h"
#include "probes/concurrency.h"
#include "probes/probe_spec.h"

namespace durprobe::cli {

void AddWritersOptions(CLI::App& app, run::WritersRequest& o) {
  AddListOption(app, "--writers", o.writers,
                "Concurrent syncers: writer counts, e.g. 1,2,4,8,16 or 'default' (threads, "
                "processes and one shared file), plus random 4 KiB at queue depth 32")
      ->type_name("LIST");
  AddListOption(app, "--writers-modes", o.modes,
                "With --writers: threads, processes, shared_file (default all three)")
      ->transform(OneOf(KeysOf(probes::WriterModeNames()), "writer mode"));
  app.add_option("--writers-primitive", o.primitive,
                 "With --writers: the sync primitive each writer uses")
      ->capture_default_str()
      ->transform(OneOf(KeysOf(probes::PrimitiveNames()), "primitive"));
}

}  // namespace durprobe::cli
