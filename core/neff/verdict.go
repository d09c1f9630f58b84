package neff

import (
	"fmt"

	"github.com/neffscope/neffscope/core/doc"
)

// libnrt status codes (spec neff.md §1.5).
const (
	StatusInvalid            = 2  // NRT_INVALID
	StatusUnsupportedVersion = 10 // NRT_UNSUPPORTED_NEFF_VERSION
)

// Verdict is what libnrt 2.31 would do when loading the file, following its checks in order
// (neff_get_header_from_buffer, then neff_parse; spec §1.5). The first failing rule decides.
type Verdict struct {
	Accepts bool
	// Status is the runtime's return code (0 when it accepts).
	Status int
	// Message is the runtime's own log text for the failing rule, with its values filled in.
	Message string
	// Rule says in words which check failed and what to do.
	Rule string
	Span *doc.Span
	// Unchecked, when set, says why no verdict could be reached: neffscope stopped reading
	// (its inflate limit) before the runtime's checks could be replayed. Accepts is false.
	Unchecked string
}

func (v Verdict) StatusName() string {
	switch v.Status {
	case 0:
		return "NRT_SUCCESS"
	case StatusInvalid:
		return "NRT_INVALID"
	case StatusUnsupportedVersion:
		return "NRT_UNSUPPORTED_NEFF_VERSION"
	}
	return fmt.Sprint(v.Status)
}

func runtimeVerdict(a *Archive) Verdict {
	h := &a.Header
	size := a.FileSize
	reject := func(status int, span *doc.Span, rule, format string, args ...any) Verdict {
		return Verdict{Status: status, Message: fmt.Sprintf(format, args...), Rule: rule, Span: span}
	}
	hf := spanOf
	switch {
	case size <= 0x3FF:
		return reject(StatusInvalid, doc.At(0, size), "the file is shorter than the 1024-byte header",
			"Invalid number of NEFF bytes received %x", size)
	case int64(h.HeaderSize) >= size || h.HeaderSize > 1<<62:
		return reject(StatusInvalid, hf((*headerBlock).headerSize), "header_size is not smaller than the file",
			"Invalid NEFF file size hdr sz: %x, file sz: %x:", h.HeaderSize, size)
	case h.NeffVersionMajor > 2:
		return reject(StatusUnsupportedVersion, hf((*headerBlock).neffVersionMajor), "the NEFF major version is above 2; a newer runtime is needed",
			"NEFF version: %d.%d is not supported, accepted version range: 0.x-2.x", h.NeffVersionMajor, h.NeffVersionMinor)
	case h.NeffVersionMajor == 2 && h.FeatureBits&RuntimeFeatureTrap != 0:
		return reject(StatusUnsupportedVersion, hf((*headerBlock).featureBits), "feature bits beyond 0..26 are set; a newer runtime is needed",
			"NEFF was compiled by a newer version of Neuron compiler (features 0x%x). Features supported by this Neuron Runtime: 0x%x", h.FeatureBits, RuntimeSupportedFeatures)
	case uint64(size-HeaderSize) < h.DataSize:
		return reject(StatusInvalid, hf((*headerBlock).dataSize), "data_size runs past the end of the file (truncated file)",
			"Invalid NEFF data size(%x vs %x)", h.DataSize, size-HeaderSize)
	case h.PkgVersion != 1 && h.PkgVersion != 2:
		return reject(StatusUnsupportedVersion, hf((*headerBlock).pkgVersion), "pkg_version is neither 1 nor 2",
			"Unsupported NEFF packager: %d", h.PkgVersion)
	case h.DataSize == 0:
		return reject(StatusInvalid, hf((*headerBlock).dataSize), "data_size is 0; verification asserts a non-empty payload",
			"Assertion `len > 0' failed")
	case a.Payload.Integrity == doc.IntegrityMismatch:
		algo := map[uint64]string{1: "SHA256", 2: "MD5"}[h.PkgVersion]
		return reject(StatusInvalid, hf((*headerBlock).hash), "the payload hash does not match the header (checked when the loader verifies)",
			"%s mismatch!", algo)
	}
	if a.InflateLimited {
		return Verdict{Unchecked: fmt.Sprintf("neffscope stopped decompressing at its inflate limit (%d bytes), so the members after it and the payload's hash were not read; raise the limit (neffscope --max-inflate N) for a verdict", a.Payload.TarLength)}
	}
	for _, f := range a.Findings {
		if f.Severity == doc.Error && (f.Part == "archive" || f.Part == "payload" || partKind(f.Part) == doc.RefMember) {
			return reject(StatusInvalid, f.Span, "the archive cannot be read to its end",
				"failure while reading NEFF metadata %s", h.Name)
		}
	}
	return Verdict{Accepts: true, Rule: "every container check of libnrt 2.31 passes (manifests are checked separately)"}
}

// partKind is the ref kind of a finding's Part ("member:<path>" → RefMember).
func partKind(part string) doc.RefKind {
	k, _ := doc.ParseRef(part)
	return k
}
