package hlo

//go:generate go run ./internal/schemagen/cmd

import "google.golang.org/protobuf/encoding/protowire"

// msgID and enumID index the generated tables (schema_gen.go).
type (
	msgID  int16
	enumID int16
)

const (
	noMsg  msgID  = -1
	noEnum enumID = -1
)

// kind is a field's protobuf type.
type kind uint8

const (
	kBool kind = iota + 1
	kEnum
	kInt32
	kSint32
	kUint32
	kInt64
	kSint64
	kUint64
	kSfixed32
	kFixed32
	kFloat
	kSfixed64
	kFixed64
	kDouble
	kString
	kBytes
	kMessage
)

// field is one row of a message: XLA's own number, name, type and label.
type field struct {
	num      protowire.Number
	name     string
	kind     kind
	repeated bool
	msg      msgID
	enum     enumID
}

// message is one message of the table.
type message struct {
	name   string
	fields []field
}

type enumValue struct {
	num  int32
	name string
}

type enumType struct {
	name   string
	values []enumValue
}

// fieldOf finds field n of message m (nil: not in XLA's schema, shown generically).
func fieldOf(m msgID, n protowire.Number) *field {
	if m < 0 || int(m) >= len(messages) {
		return nil
	}
	fs := messages[m].fields
	for i := range fs {
		if fs[i].num == n {
			return &fs[i]
		}
	}
	return nil
}

// enumName names value v of enum e ("" when the value is not in the table).
func enumName(e enumID, v int64) string {
	if e < 0 || int(e) >= len(enums) {
		return ""
	}
	for _, x := range enums[e].values {
		if int64(x.num) == v {
			return x.name
		}
	}
	return ""
}

// wireType is the wire type a field of kind k has when not packed.
func (k kind) wireType() protowire.Type {
	switch k {
	case kString, kBytes, kMessage:
		return protowire.BytesType
	case kFixed32, kSfixed32, kFloat:
		return protowire.Fixed32Type
	case kFixed64, kSfixed64, kDouble:
		return protowire.Fixed64Type
	}
	return protowire.VarintType
}

// packable says whether a repeated field of kind k may come packed (length-delimited).
func (k kind) packable() bool { return k != kString && k != kBytes && k != kMessage }
