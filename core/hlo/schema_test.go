package hlo

import (
	"bytes"
	"os"
	"testing"

	"github.com/neffscope/neffscope/core/hlo/internal/schemagen"
	"google.golang.org/protobuf/encoding/protowire"
)

// schema_gen.go is what the generator writes from the kept .proto files.
func TestSchemaFresh(t *testing.T) {
	want, err := schemagen.Generate("proto")
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile("schema_gen.go")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatal("schema_gen.go is stale: run go generate ./core/hlo")
	}
}

// The table has what the decoder relies on, with XLA's numbers.
func TestSchemaRows(t *testing.T) {
	for _, c := range []struct {
		m    msgID
		n    int
		name string
		k    kind
	}{
		{mHloModuleProto, 3, "computations", kMessage},
		{mHloModuleProto, 19, "frontend_attributes", kMessage},
		{mHloInstructionProto, 28, "custom_call_target", kString},
		{mHloInstructionProto, 36, "operand_ids", kInt64},
		{mHloInstructionProto, 43, "backend_config", kBytes},
		{mShapeProto, 2, "element_type", kEnum},
		{mOpMetadata, 4, "source_line", kInt32},
	} {
		f := fieldOf(c.m, protowire.Number(c.n))
		if f == nil || f.name != c.name || f.kind != c.k {
			t.Errorf("%s field %d: %+v", messages[c.m].name, c.n, f)
		}
	}
	if enumName(ePrimitiveType, 16) != "BF16" {
		t.Error("PrimitiveType 16 is not BF16")
	}
}
