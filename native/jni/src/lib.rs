//! JNI bridge (to be built).
