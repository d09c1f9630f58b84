package cachetest

import (
	"bytes"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"

	"github.com/johannesboyne/gofakes3"
	"github.com/johannesboyne/gofakes3/backend/s3mem"
)

// S3 serves the tree under root as the objects <prefix>/<path> of bucket on a real S3 API
// server on loopback (gofakes3, in memory), and points the AWS SDK at it through the
// environment: AWS_ENDPOINT_URL_S3, and no shared config, no instance metadata. With creds the
// environment holds static credentials; without, none (anonymous requests). It returns the
// s3:// URL of the tree.
func S3(t testing.TB, root, bucket, prefix string, creds bool) string {
	t.Helper()
	backend := s3mem.New()
	srv := httptest.NewServer(gofakes3.New(backend).Server())
	t.Cleanup(srv.Close)
	if err := backend.CreateBucket(bucket); err != nil {
		t.Fatal(err)
	}
	for _, rel := range Files(t, root) {
		b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(rel)))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := backend.PutObject(bucket, prefix+"/"+rel, map[string]string{}, bytes.NewReader(b), int64(len(b)), nil); err != nil {
			t.Fatal(err)
		}
	}
	none := filepath.Join(t.TempDir(), "none")
	t.Setenv("AWS_ENDPOINT_URL_S3", srv.URL)
	t.Setenv("AWS_ENDPOINT_URL", "")
	t.Setenv("AWS_REGION", "us-east-1")
	t.Setenv("AWS_EC2_METADATA_DISABLED", "true")
	t.Setenv("AWS_CONFIG_FILE", none)
	t.Setenv("AWS_SHARED_CREDENTIALS_FILE", none)
	t.Setenv("AWS_PROFILE", "")
	t.Setenv("AWS_CONTAINER_CREDENTIALS_FULL_URI", "")
	t.Setenv("AWS_CONTAINER_CREDENTIALS_RELATIVE_URI", "")
	t.Setenv("AWS_WEB_IDENTITY_TOKEN_FILE", "")
	t.Setenv("AWS_SESSION_TOKEN", "")
	if creds {
		t.Setenv("AWS_ACCESS_KEY_ID", "AKIDNEFFSCOPETEST")
		t.Setenv("AWS_SECRET_ACCESS_KEY", "neffscope-test-secret-never-printed")
	} else {
		t.Setenv("AWS_ACCESS_KEY_ID", "")
		t.Setenv("AWS_SECRET_ACCESS_KEY", "")
	}
	return "s3://" + bucket + "/" + prefix
}
