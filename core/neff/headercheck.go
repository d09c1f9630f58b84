package neff

import "github.com/neffscope/neffscope/core/doc"

// The checks of the header's fields (headerFields' check column): each reports, on its field,
// a value a runtime would refuse or that looks wrong.

func checkPkgVersion(a *Archive, f *fieldSpec) {
	if v := a.Header.PkgVersion; v != 1 && v != 2 {
		a.report(doc.CodeNeffPkgVersion, doc.HeaderRef(f.Name), doc.Error, f.span(), "pkg_version is %d; only 1 (tar + SHA-256) and 2 (gzip'd tar + MD5) exist. If this is meant to be a NEFF, its header is damaged.", v)
	}
}

func checkHeaderSize(a *Archive, f *fieldSpec) {
	if v := a.Header.HeaderSize; v != HeaderSize {
		a.report(doc.CodeNeffHeaderSize, doc.HeaderRef(f.Name), doc.Warning, f.span(), "header_size is %d, but every known NEFF has 1024 and the runtime reads the payload at byte 1024 regardless; the payload is read from 1024.", v)
	}
}

func checkDataSize(a *Archive, f *fieldSpec) {
	if a.FileSize < HeaderSize {
		return
	}
	h := &a.Header
	avail := uint64(a.FileSize - HeaderSize)
	switch {
	case h.DataSize > avail:
		a.report(doc.CodeNeffTruncated, doc.HeaderRef(f.Name), doc.Error, f.span(), "data_size is %d but only %d bytes follow the header: the file is truncated (%d bytes missing). Copy the file again; what is present is still read.", h.DataSize, avail, h.DataSize-avail)
	case h.DataSize < avail:
		a.Payload.TrailingBytes = int64(avail - h.DataSize)
		a.report(doc.CodeNeffTrailingBytes, doc.HeaderRef(f.Name), doc.Warning, doc.At(HeaderSize+int64(h.DataSize), int64(avail-h.DataSize)), "%d bytes after the payload (from byte %d) are not covered by data_size nor by the hash; real NEFFs have none. Something was appended to the file.", avail-h.DataSize, HeaderSize+h.DataSize)
	}
}

func checkVersionMajor(a *Archive, f *fieldSpec) {
	if v := a.Header.NeffVersionMajor; v > 2 {
		a.report(doc.CodeNeffVersion, doc.HeaderRef(f.Name), doc.Error, f.span(), "neff_version_major is %d; runtimes accept 0..2. This NEFF needs a newer runtime, or its header is damaged.", v)
	}
}

// checkHashTail: pkg 2 stores its MD5 in the first 16 bytes; the other 16 are zero in modern
// files and ASCII '0' in the old fixture (Unknown-ID: neff.hash-tail).
func checkHashTail(a *Archive, f *fieldSpec) {
	h := &a.Header
	if h.PkgVersion != 2 {
		return
	}
	allZero, allASCII0 := true, true
	for _, c := range h.Hash[16:] {
		allZero = allZero && c == 0
		allASCII0 = allASCII0 && c == '0'
	}
	if !allZero && !allASCII0 {
		span := f.span()
		a.report(doc.CodeNeffHashTail, doc.HeaderRef(f.Name), doc.Info, doc.At(span.Offset+16, 16), "hash bytes 16..31 are neither zero (modern files) nor ASCII '0' (the old fixture); pkg 2 uses only the first 16 bytes, so they are ignored.")
	}
}

func checkUUID(a *Archive, f *fieldSpec) {
	if a.Header.UUID == [16]byte{} {
		a.report(doc.CodeNeffUUIDZero, doc.HeaderRef(f.Name), doc.Warning, f.span(), "the UUID is all zero; runtimes use it as a cache key and the profiler pairs traces by it.")
	}
}

func checkFeatureBits(a *Archive, f *fieldSpec) {
	h := &a.Header
	_, unknown := FeatureNames(h.FeatureBits)
	for _, v := range unknown {
		a.report(doc.CodeNeffFeatureUnknown, doc.HeaderRef(f.Name), doc.Warning, f.span(), "feature bit 0x%x has no known name (neffscope's table follows spec neff.md §1.4).", v)
	}
	if h.NeffVersionMajor == 2 && h.FeatureBits&RuntimeFeatureTrap != 0 {
		a.report(doc.CodeNeffFeatureUnsupported, doc.HeaderRef(f.Name), doc.Error, f.span(), "feature bits 0x%x are beyond what libnrt 2.31 supports (0x%x): that runtime refuses this NEFF as compiled by a newer compiler. Use a newer Neuron runtime.", h.FeatureBits&RuntimeFeatureTrap, RuntimeSupportedFeatures)
	}
}

func checkPad(a *Archive, f *fieldSpec) {
	for i, c := range a.Header.Pad() {
		if c != 0 {
			off := f.span().Offset + int64(i)
			a.report(doc.CodeNeffReservedNonzero, doc.HeaderRef(f.Name), doc.Warning, doc.At(off, 1), "the reserved area 0x22C..0x3FF holds a non-zero byte at 0x%X; real NEFFs leave it zero. A newer producer may use it, or the header is damaged.", off)
			return
		}
	}
}
