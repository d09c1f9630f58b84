// Package e2e drives the built page (dist/site served over HTTP, and dist/neffscope.html from
// file://) in the system's headless Chromium: open real and generated NEFFs through the file
// input and by a synthetic drop, and check what a person would see, that hostile file content
// stays text, and that the page makes no request outside its origin.
//
// Run `make dist` first (make test-browser does).
package e2e
