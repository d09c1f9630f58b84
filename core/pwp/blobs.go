package pwp

import (
	"math"

	"github.com/neffscope/neffscope/core/doc"
)

// DecodeBuckets decodes a <set>_bkt.bin: 32-byte records {d0,d1,d2,d3,x, 12 zero bytes} (§2).
// want is the profile's bkt_entry_cnt (negative = unknown). A trailing partial record, a
// count mismatch and non-zero padding are findings; every whole record present is returned.
func DecodeBuckets(source string, b []byte, want int) ([]Bucket, []doc.Finding) {
	var fs []doc.Finding
	fd := finder{source, &fs}
	n := len(b) / BucketSize
	if n > maxBlobRecords {
		fd.add(doc.CodePwpBadBlob, doc.Error, doc.In(source, 0, int64(len(b))), "%s has %d records, more than the %d a bucket table can address; only the first %d are read", source, n, maxBlobRecords, maxBlobRecords)
		n = maxBlobRecords
	}
	if r := len(b) % BucketSize; r != 0 {
		fd.add(doc.CodePwpBadBlob, doc.Error, doc.In(source, int64(n*BucketSize), int64(r)), "%s is %d bytes, not a multiple of the 32-byte bucket record; the last %d bytes are ignored", source, len(b), r)
	}
	if want >= 0 && want != n {
		fd.add(doc.CodePwpBadBlob, doc.Error, doc.In(source, 0, int64(len(b))), "%s holds %d bucket records (%d bytes) but the profile's bkt_entry_cnt says %d (= %d bytes); the blob does not belong to this profile or is truncated", source, n, len(b), want, want*BucketSize)
	}
	out := make([]Bucket, n)
	badPad := 0
	for i := range out {
		off := i * BucketSize
		r := b[off : off+BucketSize]
		out[i] = Bucket{
			D0: math.Float32frombits(le32(r, 0)), D1: math.Float32frombits(le32(r, 4)),
			D2: math.Float32frombits(le32(r, 8)), D3: math.Float32frombits(le32(r, 12)),
			X: math.Float32frombits(le32(r, 16)),
		}
		for _, c := range r[bucketPayload:] {
			if c != 0 {
				if badPad < 8 {
					fd.add(doc.CodePwpBlobUnusual, doc.Warning, doc.In(source, int64(off+bucketPayload), BucketSize-bucketPayload), "bucket %d: padding bytes 20..31 are not zero (always zero in real blobs)", i)
				}
				badPad++
				break
			}
		}
	}
	if badPad > 8 {
		fd.add(doc.CodePwpBlobUnusual, doc.Warning, doc.In(source, 0, int64(len(b))), "%d bucket records in all have non-zero padding", badPad)
	}
	return out, fs
}

// CtrlStride infers the ctrl record stride = file size / ctl_entry_cnt (§3): 32 on trainium,
// 16 on with_ln. When the count does not divide the size, the likeliest stride is guessed.
func CtrlStride(size, count int) (stride int, exact bool) {
	if count > 0 && size%count == 0 && size/count >= 4 {
		return size / count, true
	}
	for _, s := range []int{32, 16} {
		if size%s == 0 {
			return s, false
		}
	}
	return 32, false
}

// DecodeControls decodes a <set>_ctrl.bin. want is ctl_entry_cnt (negative = unknown).
func DecodeControls(source string, b []byte, want int) ([]Control, int, []doc.Finding) {
	var fs []doc.Finding
	fd := finder{source, &fs}
	whole := doc.In(source, 0, int64(len(b)))
	stride, exact := CtrlStride(len(b), want)
	switch {
	case want < 0:
		fd.add(doc.CodePwpBlobUnusual, doc.Warning, whole, "ctl_entry_cnt is unknown; the stride %d is guessed from the size %d", stride, len(b))
	case !exact:
		fd.add(doc.CodePwpBadBlob, doc.Error, whole, "%s is %d bytes, which is not ctl_entry_cnt %d records of a whole stride; read with stride %d, giving %d records", source, len(b), want, stride, len(b)/stride)
	case stride != 32 && stride != 16:
		fd.add(doc.CodePwpBlobUnusual, doc.Warning, whole, "%s has a %d-byte stride (%d bytes / %d records); known catalogs use 32 (trainium) or 16 (with_ln)", source, stride, len(b), want)
	}
	n := len(b) / stride
	if n > maxBlobRecords {
		n = maxBlobRecords
	}
	if r := len(b) - n*stride; r != 0 && exact {
		fd.add(doc.CodePwpBadBlob, doc.Error, doc.In(source, int64(n*stride), int64(r)), "the last %d bytes of %s are not a whole record", r, source)
	}
	out := make([]Control, n)
	badPad := 0
	for i := range out {
		off := i * stride
		out[i] = DecodeControl(le32(b, off))
		if out[i].Reserved != 0 {
			fd.add(doc.CodePwpBlobUnusual, doc.Warning, doc.In(source, int64(off+3), 1), "ctrl word %d = 0x%08x has reserved bits [31:24] set (always 0 in real blobs)", i, out[i].Word)
		}
		for _, c := range b[off+4 : off+stride] {
			if c != 0 {
				if badPad < 8 {
					fd.add(doc.CodePwpBlobUnusual, doc.Warning, doc.In(source, int64(off+4), int64(stride-4)), "ctrl record %d: bytes 4..%d are not zero (always zero in real blobs)", i, stride-1)
				}
				badPad++
				break
			}
		}
	}
	if badPad > 8 {
		fd.add(doc.CodePwpBlobUnusual, doc.Warning, whole, "%d ctrl records in all have non-zero padding", badPad)
	}
	return out, stride, fs
}
