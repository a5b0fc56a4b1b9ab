#include <fcntl.h>
#include <unistd.h>

#include "platform/program.h"

namespace durprobe::platform {

Result<ProgramRun> RunProgram(Platform& platform, const std::vector<std::string>& argv) {
  if (argv.empty()) return Status::InvalidArgument("no program to run");
  Result<Pipe> pipe = platform.MakePipe();
  if (!pipe.ok()) return pipe.status();
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  int out = pipe->write.get();
  Result<int> pid = platform.Spawn([&args, out] {
    int null = ::open("/dev/null", O_RDONLY);
    if (null < 0 || ::dup2(null, 0) < 0 || ::dup2(out, 1) < 0 || ::dup2(out, 2) < 0) return 126;
    ::execvp(args[0], args.data());
    return 127;
  });
  if (!pid.ok()) return pid.status();
  if (Status s = pipe->write.Close(); !s.ok()) return s;
  ProgramRun run;
  char buf[4096];
  for (;;) {
    Result<std::size_t> n = platform.ReadSome(pipe->read.get(), buf, sizeof buf);
    if (!n.ok() || *n == 0) break;
    if (run.output.size() < 65536) run.output.append(buf, *n);
  }
  Result<int> code = platform.WaitChild(*pid);
  if (!code.ok() && code.status().kind() == Status::Kind::kInterrupted) return code.status();
  if (!code.ok()) return Status::Error(argv[0] + ": " + code.status().message());
  run.exit_code = *code;
  return run;
}

}  // namespace durprobe::platform
