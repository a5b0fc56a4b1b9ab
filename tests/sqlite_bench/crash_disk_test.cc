// The simulated disk: what survives a crash and what may not, per the model in crash_disk.h.
#include "sqlite_bench/crash_disk.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

namespace durprobe::sqlite_bench {
namespace {

constexpr int kSeeds = 200;

DiskImage Crash(const CrashDisk& disk, std::uint64_t seed) {
  SplitMix64 rng(seed);
  return disk.ImageFor(disk.RandomChoices(rng), seed);
}

// A disk holding one durable file "f" of `size` zero bytes.
CrashDisk DiskWithFile(DeviceModel device = {}, std::size_t size = 0) {
  CrashDisk disk(device);
  int f = disk.Create("f");
  if (size > 0) disk.Write(f, 0, std::string(size, '\0').data(), size);
  disk.MakeAllDurable();
  return disk;
}

TEST(CrashDiskTest, ASyncedWriteAlwaysSurvives) {
  CrashDisk disk = DiskWithFile();
  int f = disk.Lookup("f");
  disk.Write(f, 0, "synced", 6);
  disk.SyncFile(f);
  disk.Write(f, 8192, "later", 5);  // unsynced, in another sector
  EXPECT_EQ(disk.pending(), 1u);
  for (int seed = 1; seed <= kSeeds; ++seed) {
    DiskImage image = Crash(disk, seed);
    ASSERT_EQ(image.count("f"), 1u);
    EXPECT_EQ(image["f"].substr(0, 6), "synced") << "seed " << seed;
  }
}

TEST(CrashDiskTest, AnUnsyncedWriteCanVanishOrLand) {
  CrashDisk disk = DiskWithFile();
  disk.Write(disk.Lookup("f"), 0, "maybe", 5);
  int landed = 0, vanished = 0;
  for (int seed = 1; seed <= kSeeds; ++seed) {
    std::string f = Crash(disk, seed)["f"];
    if (f == "maybe") ++landed;
    if (f.empty()) ++vanished;
  }
  EXPECT_GT(landed, 0);
  EXPECT_GT(vanished, 0);
}

TEST(CrashDiskTest, ASectorCanTearIntoGarbageUnlessSectorsAreAtomic) {
  for (bool atomic : {false, true}) {
    DeviceModel device{.sector_size = 512, .atomic_sectors = atomic};
    CrashDisk disk = DiskWithFile(device, 2048);
    disk.Write(disk.Lookup("f"), 0, std::string(2048, 'x').data(), 2048);
    int torn = 0, mixed = 0;
    for (int seed = 1; seed <= kSeeds; ++seed) {
      std::string f = Crash(disk, seed)["f"];
      ASSERT_EQ(f.size(), 2048u);
      std::set<char> sector_kinds;
      for (int s = 0; s < 4; ++s) {
        std::string sector = f.substr(s * 512, 512);
        if (sector == std::string(512, 'x')) {
          sector_kinds.insert('x');
        } else if (sector == std::string(512, '\0')) {
          sector_kinds.insert('0');
        } else {
          sector_kinds.insert('g');
        }
      }
      torn += static_cast<int>(sector_kinds.count('g'));
      mixed += sector_kinds.count('x') && sector_kinds.count('0');
    }
    EXPECT_EQ(torn > 0, !atomic) << "atomic_sectors=" << atomic;
    EXPECT_GT(mixed, 0) << "sectors of one write land independently";
  }
}

// A torn write of part of a sector: without powersafe overwrite it may scramble the sector's
// other (synced) bytes; with it, only the bytes it wrote.
TEST(CrashDiskTest, PowersafeOverwriteKeepsATornWritesNeighbours) {
  for (bool psow : {false, true}) {
    DeviceModel device{.sector_size = 512, .powersafe_overwrite = psow};
    CrashDisk disk = DiskWithFile(device, 512);
    int f = disk.Lookup("f");
    disk.Write(f, 0, std::string(256, 's').data(), 256);
    disk.SyncFile(f);
    disk.Write(f, 256, std::string(256, 'n').data(), 256);  // unsynced, the same sector
    int neighbour_scrambled = 0, torn = 0;
    for (int seed = 1; seed <= kSeeds; ++seed) {
      std::string image = Crash(disk, seed)["f"];
      ASSERT_EQ(image.size(), 512u);
      neighbour_scrambled += image.substr(0, 256) != std::string(256, 's');
      std::string tail = image.substr(256);
      torn += tail != std::string(256, 'n') && tail != std::string(256, '\0');
    }
    EXPECT_EQ(neighbour_scrambled > 0, !psow) << "powersafe_overwrite=" << psow;
    EXPECT_GT(torn, 0) << "the written bytes themselves can still tear";
  }
}

TEST(CrashDiskTest, ACreateWithoutDirectorySyncCanVanishEvenWithItsDataSynced) {
  CrashDisk disk;
  int j = disk.Create("journal");
  disk.Write(j, 0, "records", 7);
  disk.SyncFile(j);
  int gone = 0;
  for (int seed = 1; seed <= kSeeds; ++seed) gone += Crash(disk, seed).count("journal") == 0;
  EXPECT_GT(gone, 0);
  disk.SyncDirectory();
  EXPECT_EQ(disk.pending(), 0u);
  for (int seed = 1; seed <= kSeeds; ++seed) EXPECT_EQ(Crash(disk, seed)["journal"], "records");
}

TEST(CrashDiskTest, AnUnlinkWithoutDirectorySyncCanBringTheOldFileBack) {
  CrashDisk disk;
  int j = disk.Create("journal");
  disk.Write(j, 0, "old", 3);
  disk.MakeAllDurable();
  disk.Unlink("journal");
  int new_file = disk.Create("journal");  // the next transaction's journal, never synced
  disk.Write(new_file, 0, "new", 3);
  std::set<std::string> seen;
  for (int seed = 1; seed <= kSeeds; ++seed) {
    DiskImage image = Crash(disk, seed);
    seen.insert(image.count("journal") ? image["journal"] : "<none>");
  }
  EXPECT_TRUE(seen.count("old")) << "the unlink did not reach the disk";
  EXPECT_TRUE(seen.count("<none>")) << "the unlink did, the create did not";
  EXPECT_TRUE(seen.count("new") || seen.count("")) << "the create did";
  disk.SyncDirectory();
  for (int seed = 1; seed <= kSeeds; ++seed) {
    std::string j2 = Crash(disk, seed)["journal"];
    // The name is durable, its unsynced data is not (new, absent, or a torn sector).
    EXPECT_TRUE(j2.size() == 3 || j2.empty()) << j2;
    EXPECT_NE(j2, "old");
  }
}

TEST(CrashDiskTest, RenameAndTruncateAreAppliedOrNot) {
  CrashDisk disk;
  int f = disk.Create("tmp");
  disk.Write(f, 0, "content", 7);
  disk.MakeAllDurable();
  disk.Rename("tmp", "final");
  disk.Truncate(f, 0);
  std::set<std::string> seen;
  for (int seed = 1; seed <= kSeeds; ++seed) {
    for (const auto& [name, content] : Crash(disk, seed)) seen.insert(name + "=" + content);
  }
  EXPECT_EQ(seen, (std::set<std::string>{"tmp=content", "tmp=", "final=content", "final="}));
}

TEST(CrashDiskTest, ASequentialDeviceKeepsAPrefixOfTheLog) {
  DeviceModel device{.atomic_sectors = true, .sequential = true};
  CrashDisk disk = DiskWithFile(device);
  int f = disk.Lookup("f");
  for (char c : std::string("abcd"))
    disk.Write(f, static_cast<std::uint64_t>(c - 'a') * 4096, &c, 1);
  for (int seed = 1; seed <= kSeeds; ++seed) {
    std::string image = Crash(disk, seed)["f"];
    std::string landed;
    for (std::size_t s = 0; s * 4096 < image.size(); ++s) {
      landed += image[s * 4096] ? image[s * 4096] : '.';
    }
    EXPECT_TRUE(std::string("abcd").starts_with(landed)) << landed;
  }
}

TEST(CrashDiskTest, ASafeAppendLandsAsAPrefixWithoutHolesOrGarbage) {
  DeviceModel device{.sector_size = 512, .safe_append = true};
  CrashDisk disk = DiskWithFile(device);
  disk.Write(disk.Lookup("f"), 0, std::string(2048, 'x').data(), 2048);
  std::set<std::size_t> sizes;
  for (int seed = 1; seed <= kSeeds; ++seed) {
    std::string f = Crash(disk, seed)["f"];
    EXPECT_EQ(f, std::string(f.size(), 'x'));
    sizes.insert(f.size());
  }
  EXPECT_EQ(sizes, (std::set<std::size_t>{0, 512, 1024, 1536, 2048}));
}

TEST(CrashDiskTest, SubsetsEnumerateExactlyTheImagesAtomicRandomChoicesReach) {
  DeviceModel device{.atomic_sectors = true};
  CrashDisk disk(device);
  int a = disk.Create("a"), b = disk.Create("b");
  disk.MakeAllDurable();
  disk.Write(a, 0, "1", 1);
  disk.Write(b, 0, "2", 1);
  disk.Write(a, 0, "3", 1);
  std::set<std::string> subsets, random;
  auto key = [](const DiskImage& image) { return image.at("a") + "|" + image.at("b"); };
  for (std::uint64_t mask = 0; mask < 8; ++mask)
    subsets.insert(key(disk.ImageFor(disk.SubsetChoices(mask), 0)));
  for (int seed = 1; seed <= kSeeds; ++seed) random.insert(key(Crash(disk, seed)));
  EXPECT_EQ(subsets, (std::set<std::string>{"|", "1|", "|2", "1|2", "3|", "3|2"}));
  EXPECT_EQ(random, subsets);
}

TEST(CrashDiskTest, TheSameSeedGivesTheSameImage) {
  CrashDisk disk = DiskWithFile({}, 8192);
  disk.Write(disk.Lookup("f"), 100, std::string(6000, 'y').data(), 6000);
  for (int seed = 1; seed <= 20; ++seed) EXPECT_EQ(Crash(disk, seed), Crash(disk, seed));
}

}  // namespace
}  // namespace durprobe::sqlite_bench
