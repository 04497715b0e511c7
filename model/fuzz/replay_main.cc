// SPDX-License-Identifier: GPL-2.0-or-later
// Regression replayer: the fuzz target (fuzz_target.cc) without libFuzzer.
// Runs LLVMFuzzerTestOneInput once on every file of the given directories
// (or on the given files), in name order; an invariant violation aborts, so
// CTest reports the input that broke. README*.md files are notes, skipped.
//   rtl8168-fuzz-replay DIR|FILE...
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

namespace fs = std::filesystem;

int main(int argc, char** argv) {
  if (argc < 2 || std::string(argv[1]) == "--help" || std::string(argv[1]) == "-h") {
    std::fprintf(stderr, "usage: %s DIR|FILE...  (replays each input through the fuzz target)\n",
                 argv[0]);
    return argc < 2 ? 2 : 0;
  }
  std::vector<fs::path> inputs;
  for (int i = 1; i < argc; i++) {
    const fs::path p = argv[i];
    std::error_code ec;
    if (fs::is_directory(p, ec)) {
      for (const auto& e : fs::directory_iterator(p)) {
        const std::string name = e.path().filename().string();
        if (!e.is_regular_file() || name.starts_with(".") || name.ends_with(".md")) continue;
        inputs.push_back(e.path());
      }
    } else if (fs::is_regular_file(p, ec)) {
      inputs.push_back(p);
    } else {
      std::fprintf(stderr, "rtl8168-fuzz-replay: no such file or directory: %s\n", argv[i]);
      return 2;
    }
  }
  std::sort(inputs.begin(), inputs.end());
  for (const fs::path& p : inputs) {
    std::ifstream in(p, std::ios::binary);
    const std::vector<uint8_t> data((std::istreambuf_iterator<char>(in)),
                                    std::istreambuf_iterator<char>());
    if (!in.good() && !in.eof()) {
      std::fprintf(stderr, "rtl8168-fuzz-replay: cannot read %s\n", p.c_str());
      return 2;
    }
    std::fprintf(stderr, "replay %s (%zu bytes)\n", p.c_str(), data.size());
    LLVMFuzzerTestOneInput(data.data(), data.size());
  }
  std::printf("rtl8168-fuzz-replay: %zu inputs, no invariant violated\n", inputs.size());
  return 0;
}
