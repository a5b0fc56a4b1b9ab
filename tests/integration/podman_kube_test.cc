// The Kubernetes manifests as users deploy them: Debian's podman 4.3 `kube play` takes a Pod but
// not a DaemonSet or a Job, so each manifest's pod template is played as a Pod, as written
// (its command, its volumes, its resources.limits.cpu), with the test image and temporary
// directories in place of the node's. The DaemonSet's textfile lands where node_exporter reads
// it, promtool accepts it, and the alert rules fire for a failing node and stay quiet for a
// passing one; the Job's exit status is the check's. podman reads runc, cgroupfs and the rlimits
// this host needs from a containers.conf of the test's own (CONTAINERS_CONF), never /etc.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <chrono>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "tests/integration/podman_support.h"

namespace durprobe {
namespace podman_kube_test {

using testing_support::CliRun;
using testing_support::RunShell;
using testing_support::Slurp;
using testing_support::TempDir;
using testing_support::TestImage;

const std::string kSource = DURPROBE_SOURCE_DIR;

// Replaces every occurrence of from in text.
std::string ReplaceAll(std::string text, const std::string& from, const std::string& to) {
  for (std::size_t at = text.find(from); at != std::string::npos; at = text.find(from, at)) {
    text.replace(at, from.size(), to);
    at += to.size();
  }
  return text;
}

// The manifest's spec.template as a Pod named name: the template's lines, four spaces less
// indented, under a Pod's header.
std::string PodFromTemplate(const std::string& manifest, const std::string& name) {
  std::istringstream in(manifest);
  std::string line, body;
  bool inside = false;
  while (std::getline(in, line)) {
    if (!inside) {
      inside = line == "  template:";
      continue;
    }
    if (!line.empty() && !line.starts_with("    ")) break;
    body += (line.empty() ? line : line.substr(4)) + "\n";
  }
  EXPECT_TRUE(inside) << "no spec.template in the manifest";
  body = ReplaceAll(body, "metadata:\n", "metadata:\n  name: " + name + "\n");
  if (body.find("metadata:") == std::string::npos)
    body = "metadata:\n  name: " + name + "\n" + body;
  return "apiVersion: v1\nkind: Pod\n" + body;
}

// podman with the test's containers.conf; the Pod file and the conf live in dir.
class KubePlay {
 public:
  KubePlay(const std::string& manifest, const std::string& name,
           const std::vector<std::pair<std::string, std::string>>& swaps)
      : name_(name) {
    std::ofstream(dir_.path() + "/containers.conf")
        << "[containers]\ndefault_ulimits = [\"nofile=20000:20000\", \"nproc=4096:4096\"]\n\n"
           "[engine]\nruntime = \"runc\"\ncgroup_manager = \"cgroupfs\"\n";
    std::string pod = PodFromTemplate(Slurp(kSource + "/deploy/kubernetes/" + manifest), name);
    pod = ReplaceAll(pod, "localhost/durprobe:0.1.0", TestImage().tag);
    for (const auto& [from, to] : swaps) pod = ReplaceAll(pod, from, to);
    yaml_ = dir_.path() + "/pod.yaml";
    std::ofstream(yaml_) << pod;
    text_ = pod;
    Podman("kube play --down " + yaml_);  // a pod left by an interrupted run
  }
  ~KubePlay() { Podman("kube play --down " + yaml_); }
  KubePlay(const KubePlay&) = delete;
  KubePlay& operator=(const KubePlay&) = delete;

  CliRun Podman(const std::string& args) const {
    return RunShell("CONTAINERS_CONF=" + dir_.path() + "/containers.conf podman " + args);
  }
  CliRun Play() const { return Podman("kube play " + yaml_); }
  std::string container() const { return name_ + "-durprobe"; }  // kube play's naming
  const std::string& text() const { return text_; }

 private:
  TempDir dir_;
  std::string name_, yaml_, text_;
};

// Skips unless kube play can run a pod here (catatonit for its infra container, among others).
#define DURPROBE_NEED_KUBE_PLAY()                                                              \
  do {                                                                                         \
    DURPROBE_NEED_IMAGE();                                                                     \
    if (RunShell("command -v catatonit || test -x /usr/libexec/podman/catatonit").exit_code != \
        0) {                                                                                   \
      GTEST_SKIP() << "catatonit is not installed, so podman kube play has no infra "          \
                      "container (Debian: catatonit; scripts/deps.sh test)";                   \
    }                                                                                          \
  } while (0)

// Waits up to limit for path to exist.
bool WaitForFile(const std::string& path, std::chrono::seconds limit) {
  auto until = std::chrono::steady_clock::now() + limit;
  while (std::chrono::steady_clock::now() < until) {
    if (std::ifstream(path).good()) return true;
    std::this_thread::sleep_for(std::chrono::seconds(1));
  }
  return false;
}

struct PassSeries {
  std::string path, rule;
};

// The textfile's durprobe_check_pass series, with value pass_value in place of the measured one
// (-1 keeps each as written); fails lists the rules left at 0.
std::string AsInputSeries(const std::string& textfile, int pass_value,
                          std::vector<PassSeries>& fails) {
  static const std::regex kPass(
      R"re(^durprobe_check_pass\{path="([^"]*)",rule="([^"]*)"\} (\S+)$)re");
  std::istringstream lines(textfile);
  std::string line, out;
  while (std::getline(lines, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::size_t space = line.rfind(' ');
    std::string series = line.substr(0, space);
    double value = std::stod(line.substr(space + 1));
    std::smatch m;
    if (std::regex_match(line, m, kPass)) {
      if (pass_value >= 0) value = pass_value;
      if (value == 0) fails.push_back({m[1], m[2]});
    }
    std::string quoted;
    for (char c : series) quoted += c == '\'' ? std::string("''") : std::string(1, c);
    out += fmt::format("      - series: '{}'\n        values: '{}x10'\n", quoted, value);
  }
  return out;
}

// promtool test rules on the shipped alert rules with the textfile as input: DurprobeCheckFailed
// raises exactly one alert per rule at 0, and DurprobeCheckStale stays quiet.
void ExpectAlerts(const std::string& textfile, int pass_value, std::size_t expected_fails) {
  std::vector<PassSeries> fails;
  std::string series = AsInputSeries(textfile, pass_value, fails);
  if (expected_fails != static_cast<std::size_t>(-1)) {
    ASSERT_EQ(fails.size(), expected_fails) << textfile;
  }
  std::string alerts;
  for (const PassSeries& f : fails) {
    alerts += fmt::format(
        "          - exp_labels: {{severity: warning, path: \"{0}\", rule: \"{1}\"}}\n"
        "            exp_annotations:\n"
        "              summary: \"durprobe rule {1} failed on :{0}\"\n"
        "              description: \"The last durprobe check on {0} failed or could not "
        "measure rule {1}. Read the report's checks[] for the measured value and threshold.\"\n",
        f.path, f.rule);
  }
  TempDir dir;
  std::string test = "rule_files:\n  - " + kSource +
                     "/deploy/prometheus/durprobe-alerts.yml\nevaluation_interval: 1m\ntests:\n"
                     "  - interval: 1m\n    input_series:\n" +
                     series +
                     "    alert_rule_test:\n      - eval_time: 5m\n        alertname: "
                     "DurprobeCheckFailed\n        exp_alerts:\n" +
                     (alerts.empty() ? "          []\n" : alerts) +
                     "      - eval_time: 5m\n        alertname: DurprobeCheckStale\n"
                     "        exp_alerts: []\n";
  std::ofstream(dir.path() + "/test.yml") << test;
  CliRun run = RunShell("promtool test rules " + dir.path() + "/test.yml");
  EXPECT_EQ(run.exit_code, 0) << run.out << run.err << test;
}

TEST(PodmanKubeTest, TheDaemonSetsPodLeavesATextfileTheAlertsRead) {
  DURPROBE_NEED_KUBE_PLAY();
  if (RunShell("command -v promtool").exit_code != 0) GTEST_SKIP() << "promtool is not installed";
  TempDir target("/var/tmp"), textfile;
  KubePlay pod(
      "durprobe-check-daemonset.yaml", "durprobe-test-ds-" + std::to_string(::getpid()),
      {{"/var/lib/kubelet", target.path()}, {"/var/lib/node_exporter/textfile", textfile.path()}});
  ASSERT_NE(pod.text().find("cpu: 500m"), std::string::npos) << "played as written";
  CliRun play = pod.Play();
  if (play.exit_code != 0) GTEST_SKIP() << "podman kube play cannot run here: " << play.err;
  // The limit the manifest sets is the one the container runs under.
  CliRun quota = pod.Podman("inspect " + pod.container() +
                            " --format '{{.HostConfig.CpuQuota}}/{{.HostConfig.CpuPeriod}}'");
  EXPECT_EQ(testing_support::LastLine(quota.out), "50000/100000") << quota.err;
  const std::string prom = textfile.path() + "/durprobe.prom";
  ASSERT_TRUE(WaitForFile(prom, std::chrono::seconds(180)))
      << pod.Podman("logs " + pod.container()).err;
  std::string text = Slurp(prom);
  EXPECT_NE(text.find("durprobe_check_pass{path=\"/target\",rule=\"etcd_wal_fsync_p99\"}"),
            std::string::npos)
      << text;
  CliRun metrics = RunShell("promtool check metrics < " + prom);
  EXPECT_EQ(metrics.exit_code, 0) << metrics.out << metrics.err;
  // As measured (a failure on this disk alerts, a pass stays quiet), then the same textfile as a
  // passing node's and as a failing node's.
  ExpectAlerts(text, -1, static_cast<std::size_t>(-1));
  ExpectAlerts(text, 1, 0);
  ExpectAlerts(text, 0, 5);
}

TEST(PodmanKubeTest, TheJobsPodExitsWithTheChecksStatus) {
  DURPROBE_NEED_KUBE_PLAY();
  TempDir target("/var/tmp"), textfile;
  KubePlay pod("durprobe-check-job.yaml", "durprobe-test-job-" + std::to_string(::getpid()),
               {{"/var/lib/etcd", target.path()},
                {"/var/lib/node_exporter/textfile", textfile.path()},
                // The Job is pinned to the node whose disk it accepts: this host is none.
                {"kubernetes.io/hostname: node-1", "durprobe-test: job"}});
  ASSERT_NE(pod.text().find("cpu: \"1\""), std::string::npos) << "played as written";
  CliRun play = pod.Play();
  if (play.exit_code != 0) GTEST_SKIP() << "podman kube play cannot run here: " << play.err;
  CliRun wait = pod.Podman("wait " + pod.container());
  ASSERT_EQ(wait.exit_code, 0) << wait.err;
  int exit_code = std::stoi(testing_support::LastLine(wait.out));
  std::string json_text = Slurp(textfile.path() + "/durprobe-etcd.json");
  nlohmann::json report = nlohmann::json::parse(json_text, nullptr, false);
  ASSERT_FALSE(report.is_discarded()) << pod.Podman("logs " + pod.container()).err;
  bool failed = false, unmeasured = false;
  for (const nlohmann::json& c : report["checks"]) {
    failed |= c["status"] == "fail";
    unmeasured |= c["status"] == "error" || c["status"] == "unstable";
  }
  // docs/provisioning.md: 1 when a rule failed, else 2 when one could not be measured, else 0.
  EXPECT_EQ(exit_code, failed ? 1 : unmeasured ? 2 : 0) << json_text;
  EXPECT_DOUBLE_EQ(report["context"]["cpu_quota"]["cpus"].get<double>(), 1.0);
  EXPECT_TRUE(std::ifstream(textfile.path() + "/durprobe.prom").good());
}

}  // namespace podman_kube_test
}  // namespace durprobe
