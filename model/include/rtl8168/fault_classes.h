/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * rtl8168-sim: every fault class of the fault injector, defined once
 * (X-macro list; docs/FAULTS.md "The faults").
 *
 * RTL8168_FAULT_CLASSES(X) calls X once per class, in code order. It
 * generates the model's FaultClass enum and class table (the spec parser's
 * names and keys, the canonical text, which classes count frames or fire on
 * the clock: model/src/fault_injector.{h,cc}) and the class list in the
 * fault_fired trace event's description (trace_events.def). What a class
 * does is its hook in FaultInjector; scripts/check-docs checks that the
 * table of docs/FAULTS.md and the guest scenario guest-tests/scenarios/faults.sh
 * list the classes in this order.
 *
 *   X(code, Name, "name", counts, keys, needs, "needs_help", "help", "doc")
 *
 * code       the class's number: FaultClass::Name and the fault_fired event's
 *            fault_class argument, which the trace hash mixes. Append new
 *            classes with the next code; never renumber one.
 * name       the class in a spec ("dma-read:nth=5")
 * counts     what nth= counts: kAccess (occurrences at its hook), kFrames
 *            (frames: nth= may be written frame=, and the canonical text
 *            writes frame=) or kTimed (nothing: it fires on the clock, at=
 *            and every=)
 * keys       the spec keys it takes (fault_injector.cc Key bits: kAt, kNth,
 *            kCount, kAddr, kEvery, kDelay, kBits, kAfter, kLinkAct, kLen); without
 *            kCount it fires once and its canonical text has no count=; kLen
 *            (len=: only received frames of that length) for the classes whose
 *            hook sees the frame
 * needs      the keys a spec must give (0: none); needs_help completes the
 *            refusal "<name> needs <needs_help>"
 * help       the keys it takes, as error messages list them
 * doc        one line: what fails
 */
#ifndef RTL8168_FAULT_CLASSES_H
#define RTL8168_FAULT_CLASSES_H

#define RTL8168_FAULT_CLASSES(X)                                                             \
  X(0, DmaRead, "dma-read", kAccess, kAt | kNth | kCount | kAddr, 0, "",                    \
    "at, nth, count, addr", "a DMA read fails (the host is not asked)")                     \
  X(1, DmaWrite, "dma-write", kAccess, kAt | kNth | kCount | kAddr, 0, "",                  \
    "at, nth, count, addr", "a DMA write fails (guest memory untouched)")                   \
  X(2, RxWithhold, "rx-withhold", kFrames, kAt | kNth | kCount, 0, "",                       \
    "at, frame (nth), count", "an RX descriptor fetch finds no buffer (RDU: RxOverflow)")   \
  X(3, RxFifoOver, "rx-fifo-over", kFrames, kAt | kNth | kCount | kLen, 0, "",               \
    "at, frame (nth), count, len", "a received frame overflows the RX FIFO (RxFIFOOver)")   \
  X(4, Link, "link", kTimed, kAt | kEvery | kCount | kLinkAct, kLinkAct,                      \
    "one of down, up, flap, speed=",                                                         \
    "at, every, count and one of down, up, flap, speed=10|100|1000|2500 [duplex=half|full]", \
    "carrier down / up / flap, or the partner changes speed/duplex")                        \
  X(5, AutonegSlow, "autoneg-slow", kAccess, kAt | kNth | kCount | kDelay, kDelay, "delay=", \
    "delay, at, nth, count", "an autonegotiation takes `delay` longer")                     \
  X(6, SpuriousIrq, "spurious-irq", kTimed, kAt | kEvery | kCount | kBits, kBits, "bits=",    \
    "bits, at, every, count", "unsolicited IntrStatus bits")                                \
  X(7, IrqRace, "irq-race", kAccess, kAt | kNth | kCount | kBits | kAfter, kAfter,          \
    "after=read or after=ack", "after=read|ack, at, nth, count, bits",                      \
    "a device event right after an IntrStatus read or ack")                                 \
  X(8, TxStopFetch, "tx-stop-fetch", kFrames, kAt | kNth, 0, "", "at, frame",                \
    "the TX engine stops fetching descriptors until restarted")                              \
  X(9, RxBadFcs, "rx-bad-fcs", kFrames, kAt | kNth | kCount | kLen, 0, "",                   \
    "at, frame (nth), count, len", "a received frame arrives with a bad FCS (RxCRC)")        \
  X(10, RxRunt, "rx-runt", kFrames, kAt | kNth | kCount | kLen, 0, "",                       \
    "at, frame (nth), count, len",                                                           \
    "a received frame is cut below 64 bytes on the wire (RxRUNT)")                           \
  X(11, RxTooLong, "rx-too-long", kFrames, kAt | kNth | kCount | kLen, 0, "",                \
    "at, frame (nth), count, len", "a received frame runs on past RxMaxSize (RxRWT)")

/* " 0=dma-read 1=dma-write ...": the classes by code, for descriptions. */
#define RTL8168_FAULT_CLASS_CODE(code, Name, name, counts, keys, needs, needs_help, help, doc) \
  " " #code "=" name
#define RTL8168_FAULT_CLASS_CODES RTL8168_FAULT_CLASSES(RTL8168_FAULT_CLASS_CODE)

#endif /* RTL8168_FAULT_CLASSES_H */
