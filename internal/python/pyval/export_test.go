package pyval

// AppendFloatReprSlow exposes the uncached float formatting to the tests.
var AppendFloatReprSlow = appendFloatReprSlow
