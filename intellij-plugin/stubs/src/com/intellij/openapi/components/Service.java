package com.intellij.openapi.components;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

// intellij-community: platform/core-api/src/com/intellij/openapi/components/Service.java
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface Service {
  Level[] value() default {};

  // intellij-community: platform/core-api/src/com/intellij/openapi/components/Service.java
  enum Level { APP, PROJECT }
}
