// The streamed search, lesson 17's v2 - the hand-over of the staging ring's slots between the reader threads and the
// thread that queues the copies and the searches (the queue). Slot k mod K carries chunk k:
//   a reader:  wait_to_fill(k), wait for the slot's `copied` event, read chunk k's window, filled(k, bytes)
//   the queue: wait_filled(k), queue chunk k's copy (which records `copied`), taken(k), ...
// A reader may fill chunk k once chunk k - K has been taken, that is once its copy is queued: the
// copy's event then says when the copy engine has finished reading the buffer. The queue takes the
// chunks in order. stop() ends every wait: at the end, or on an error, which the queue then rethrows.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace cudamatch {

class ChunkRing {
 public:
  explicit ChunkRing(std::size_t slots);

  // Reader: waits until chunk k may go into its slot (chunk k - slots taken). False when stopped.
  bool wait_to_fill(std::uint64_t chunk);
  // Reader: chunk k's window is in its slot, `bytes` long (0: the input ended before chunk k).
  void filled(std::uint64_t chunk, std::size_t bytes);
  // Queue: waits until chunk k is in its slot and returns its length (0: the input has ended, or the
  // ring was stopped). Rethrows the error the ring was stopped with.
  std::size_t wait_filled(std::uint64_t chunk);
  // Queue: chunk k (the next in order) is taken: its copy is queued.
  void taken(std::uint64_t chunk);
  // Ends every wait, now and later; `error`, when given, is rethrown by wait_filled.
  void stop(const std::exception_ptr& error = nullptr);

 private:
  struct Held {
    std::uint64_t chunk = 0;
    std::size_t bytes = 0;
    bool full = false;
  };
  std::mutex mutex_;
  std::condition_variable changed_;
  std::vector<Held> slots_;
  std::uint64_t taken_ = 0;  // chunks [0, taken_) are taken
  bool stopped_ = false;
  std::exception_ptr error_;
};

// `count` threads, thread r running work(r). An exception in one stops the ring with that error.
// However the owner's scope ends (the queue done, or failed), the destructor stops the ring and joins
// the threads, so that none outlives the buffers it reads into.
class ReaderThreads {
 public:
  ReaderThreads(ChunkRing& ring, unsigned count, const std::function<void(unsigned reader)>& work);
  ~ReaderThreads();
  ReaderThreads(const ReaderThreads&) = delete;
  ReaderThreads& operator=(const ReaderThreads&) = delete;

 private:
  void stop_and_join();
  ChunkRing& ring_;
  std::vector<std::thread> threads_;
};

}  // namespace cudamatch
