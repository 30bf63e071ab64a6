package com.intellij.xdebugger.frame.presentation;

import com.intellij.openapi.editor.colors.TextAttributesKey;
import org.jetbrains.annotations.NotNull;
import org.jetbrains.annotations.Nullable;

// intellij-community: platform/xdebugger-api/src/com/intellij/xdebugger/frame/presentation/XValuePresentation.java
public abstract class XValuePresentation {
  // threading: any platform/xdebugger-api/src/com/intellij/xdebugger/frame/presentation/XValuePresentation.java: a getter/value call with no threading rule known (unverified)
  public abstract void renderValue(@NotNull XValueTextRenderer renderer);
  // threading: any platform/xdebugger-api/src/com/intellij/xdebugger/frame/presentation/XValuePresentation.java: a getter/value call with no threading rule known (unverified)
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
