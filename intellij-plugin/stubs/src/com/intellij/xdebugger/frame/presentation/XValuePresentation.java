package com.intellij.xdebugger.frame.presentation;

import com.intellij.openapi.editor.colors.TextAttributesKey;
import org.jetbrains.annotations.NotNull;
import org.jetbrains.annotations.Nullable;

// intellij-community: platform/xdebugger-api/src/com/intellij/xdebugger/frame/presentation/XValuePresentation.java
public abstract class XValuePresentation {
  // threading: any platform/xdebugger-api/src/com/intellij/xdebugger/frame/presentation/XValuePresentation.java (file id 16628604214 @0d95ef8ac986d64379a26c73673cae7680f6791d): read, no annotation or rule ("Renders value text by delegating to renderer methods")
  public abstract void renderValue(@NotNull XValueTextRenderer renderer);
  // threading: any platform/xdebugger-api/src/com/intellij/xdebugger/frame/presentation/XValuePresentation.java (file id 16628604214 @0d95ef8ac986d64379a26c73673cae7680f6791d): read, a plain getter (returns null by default), no rule
  public @Nullable String getType() { return null; }

  // intellij-community: platform/xdebugger-api/src/com/intellij/xdebugger/frame/presentation/XValuePresentation.java
  public interface XValueTextRenderer {
    void renderValue(@NotNull String value);
    void renderStringValue(@NotNull String value);
    void renderNumericValue(@NotNull String value);
    void renderKeywordValue(@NotNull String value);
    void renderValue(@NotNull String value, @NotNull TextAttributesKey key);
    void renderStringValue(@NotNull String value, @Nullable String additionalSpecialCharsToHighlight, int maxLength);
    void renderComment(@NotNull String comment);
    void renderSpecialSymbol(@NotNull String symbol);
    void renderError(@NotNull String error);
  }
}
