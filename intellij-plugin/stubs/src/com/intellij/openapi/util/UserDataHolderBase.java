package com.intellij.openapi.util;

import org.jetbrains.annotations.NotNull;
import org.jetbrains.annotations.Nullable;

// Stub bodies keep the data per key, as the real class does (UserDataHolderBase.java, file id 7583173811:
// a KeyFMap updated atomically); ExecutionManagerImpl reads what a caller put (EXECUTION_SKIP_RUN).
// intellij-community: platform/util/src/com/intellij/openapi/util/UserDataHolderBase.java
public class UserDataHolderBase implements UserDataHolder {
  private final java.util.concurrent.ConcurrentHashMap<Key<?>, Object> myData = new java.util.concurrent.ConcurrentHashMap<>();
  @SuppressWarnings("unchecked")
  public <T> T getUserData(@NotNull Key<T> key) { return (T)myData.get(key); }
  public <T> void putUserData(@NotNull Key<T> key, @Nullable T value) {
    if (value == null) myData.remove(key); else myData.put(key, value);
  }
}
