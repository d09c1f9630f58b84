package cachesrc

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"strings"
	"sync"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/service/s3"
)

// s3Source lists s3://bucket/prefix page by page and reads objects with range requests.
type s3Source struct {
	root, bucket, prefix string
	client               *s3.Client
	opt                  Options
}

// ParseS3 splits s3://bucket/prefix.
func ParseS3(root string) (bucket, prefix string, err error) {
	rest, ok := strings.CutPrefix(root, "s3://")
	if !ok {
		rest, ok = strings.CutPrefix(root, "S3://")
	}
	if !ok {
		return "", "", fmt.Errorf("%s is not an s3://bucket/prefix URL", root)
	}
	bucket, prefix, _ = strings.Cut(rest, "/")
	if bucket == "" {
		return "", "", fmt.Errorf("%s names no bucket (s3://bucket/prefix)", root)
	}
	return bucket, strings.TrimSuffix(prefix, "/"), nil
}

// Endpoint is the custom S3 endpoint the environment names (AWS_ENDPOINT_URL_S3, else
// AWS_ENDPOINT_URL), "" for AWS's own.
func Endpoint() string {
	if e := os.Getenv("AWS_ENDPOINT_URL_S3"); e != "" {
		return e
	}
	return os.Getenv("AWS_ENDPOINT_URL")
}

// Client makes the S3 client a cache is read with: the SDK's standard credential chain
// (environment, shared config and credentials files, SSO, web identity, container and
// instance roles), anonymous requests when the chain finds no credentials (public buckets),
// and a custom endpoint from the environment with path-style addressing (MinIO, LocalStack
// and most S3-compatible servers serve no virtual-hosted buckets). Anonymous says which.
func Client(ctx context.Context) (client *s3.Client, anonymous bool, err error) {
	cfg, err := config.LoadDefaultConfig(ctx)
	if err != nil {
		return nil, false, fmt.Errorf("reading the AWS configuration: %v", err)
	}
	if cfg.Region == "" {
		cfg.Region = "us-east-1" // the SDK needs one; S3 redirects a bucket's requests to its own
	}
	if cfg.Credentials == nil {
		anonymous = true
	} else if _, cerr := cfg.Credentials.Retrieve(ctx); cerr != nil {
		anonymous = true
	}
	if anonymous {
		cfg.Credentials = aws.AnonymousCredentials{}
	}
	// A range read has no whole-object checksum to check: asking for one only logs that.
	cfg.ResponseChecksumValidation = aws.ResponseChecksumValidationWhenRequired
	ep := Endpoint()
	return s3.NewFromConfig(cfg, func(o *s3.Options) {
		if ep != "" {
			o.BaseEndpoint = aws.String(ep)
			o.UsePathStyle = true
		}
	}), anonymous, nil
}

func newS3(ctx context.Context, root string, opt Options) (*s3Source, error) {
	bucket, prefix, err := ParseS3(root)
	if err != nil {
		return nil, err
	}
	client, _, err := Client(ctx)
	if err != nil {
		return nil, err
	}
	return &s3Source{root: strings.TrimSuffix(root, "/"), bucket: bucket, prefix: prefix, client: client, opt: opt}, nil
}

func (s *s3Source) Walk(ctx context.Context, fn func(Entry) error) error {
	in := &s3.ListObjectsV2Input{Bucket: aws.String(s.bucket)}
	if s.prefix != "" {
		in.Prefix = aws.String(s.prefix + "/")
	}
	if s.opt.PageSize > 0 {
		in.MaxKeys = aws.Int32(s.opt.PageSize)
	}
	pages := s3.NewListObjectsV2Paginator(s.client, in)
	for pages.HasMorePages() {
		page, err := pages.NextPage(ctx)
		if err != nil {
			return fmt.Errorf("listing s3://%s/%s: %v", s.bucket, s.prefix, describeS3(err))
		}
		for _, o := range page.Contents {
			key := aws.ToString(o.Key)
			if strings.HasSuffix(key, "/") {
				continue // a folder marker
			}
			rel := strings.TrimPrefix(strings.TrimPrefix(key, s.prefix), "/")
			e := Entry{Path: s.root + "/" + rel, Rel: rel, Size: aws.ToInt64(o.Size)}
			if s.opt.Keep(path.Base(rel)) {
				size := e.Size
				e.open = func() (File, error) {
					return &s3Object{client: s.client, bucket: s.bucket, key: key, size: size, ctx: ctx}, nil
				}
			}
			if err := fn(e); err != nil {
				return err
			}
		}
	}
	return nil
}

func (s *s3Source) Close() error { return nil }

// describeS3 says what an S3 error means for the user, naming no credential.
func describeS3(err error) string {
	msg := err.Error()
	if strings.Contains(msg, "AccessDenied") || strings.Contains(msg, "403") {
		return msg + " (the request was refused: check the credentials the AWS SDK finds — AWS_PROFILE, AWS_ACCESS_KEY_ID, an instance role — or, for a public bucket, that it allows anonymous listing)"
	}
	return msg
}

// s3Object reads one object with range requests: the first read fetches what it asks for (at
// least 64 KiB, so a header costs one small request), and each further miss twice the last
// window, up to 8 MiB, so a sequential read of a large NEFF takes few requests.
type s3Object struct {
	client      *s3.Client
	bucket, key string
	size        int64
	ctx         context.Context
	mu          sync.Mutex
	off         int64
	buf         []byte
	window      int64
	// Requests counts the range requests made (for tests and progress).
	Requests int
}

const (
	firstWindow = 64 << 10
	maxWindow   = 8 << 20
)

func (o *s3Object) ReadAt(p []byte, off int64) (int, error) {
	if off < 0 {
		return 0, errors.New("negative offset")
	}
	if off >= o.size {
		return 0, io.EOF
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	n := 0
	for n < len(p) && off < o.size {
		if off < o.off || off >= o.off+int64(len(o.buf)) {
			o.window = min(max(o.window*2, firstWindow, int64(len(p)-n)), max(maxWindow, int64(len(p)-n)))
			if err := o.fetch(off, min(o.window, o.size-off)); err != nil {
				return n, err
			}
		}
		k := copy(p[n:], o.buf[off-o.off:])
		n += k
		off += int64(k)
	}
	if n < len(p) {
		return n, io.EOF
	}
	return n, nil
}

func (o *s3Object) fetch(off, n int64) error {
	out, err := o.client.GetObject(o.ctx, &s3.GetObjectInput{Bucket: aws.String(o.bucket), Key: aws.String(o.key),
		Range: aws.String(fmt.Sprintf("bytes=%d-%d", off, off+n-1))})
	if err != nil {
		return fmt.Errorf("reading s3://%s/%s at %d: %v", o.bucket, o.key, off, describeS3(err))
	}
	defer out.Body.Close()
	o.Requests++
	buf := make([]byte, n)
	k, err := io.ReadFull(out.Body, buf)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) {
		return fmt.Errorf("reading s3://%s/%s at %d: %v", o.bucket, o.key, off, err)
	}
	o.off, o.buf = off, buf[:k]
	if k == 0 {
		return io.ErrUnexpectedEOF
	}
	return nil
}

func (o *s3Object) Close() error { return nil }

// Size is the object's size.
func (o *s3Object) Size() int64 { return o.size }
