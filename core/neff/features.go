package neff

import "github.com/neffscope/neffscope/core/featurebits"

// Feature is a row of the one feature-bit catalogue (core/featurebits).
type Feature = featurebits.Feature

// RuntimeFeatureTrap is the mask libnrt 2.31 rejects when neff_version_major == 2: it
// understands bits 0..26 only (spec §1.4). Bit 63 is not tested.
const RuntimeFeatureTrap = 0x7FFFFFFFF8000000

// RuntimeSupportedFeatures is the value libnrt 2.31 prints as "Features supported".
const RuntimeSupportedFeatures = 0x7ffffff

// FeatureNames names the set bits of mask (see featurebits.Names).
func FeatureNames(mask uint64) (names []string, unknown []uint64) { return featurebits.Names(mask) }

// FeatureByBit finds the catalogue row of one bit.
func FeatureByBit(v uint64) (Feature, bool) { return featurebits.ByBit(v) }
