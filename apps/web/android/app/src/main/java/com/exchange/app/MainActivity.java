package com.exchange.app;

import com.getcapacitor.BridgeActivity;

public class MainActivity extends BridgeActivity {}
