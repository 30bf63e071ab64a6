package com.intellij.util.messages;

import org.jetbrains.annotations.NotNull;

// intellij-community: platform/extensions/src/com/intellij/util/messages/Topic.java
public class Topic<L> {
  public Topic(@NotNull String displayName, @NotNull Class<L> listenerClass) { }
}
