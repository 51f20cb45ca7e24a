// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {RecipientModuleBase} from "./RecipientModuleBase.sol";

/// @notice identity-verification-v2: the recipient must be registered and satisfy an expression over
/// claim topics, each topic evaluated with IIdentityRegistry.isVerified(wallet, [topic]).
/// params: abi.encode((uint8 nodeType, uint256 value)[] expression), in postfix order;
/// nodeType 0 = TOPIC (value = topic id), 1 = AND, 2 = OR, 3 = NOT (value ignored for operators).
/// "topic A and topic B" is [TOPIC A, TOPIC B, AND]; an empty expression requires registration only.
/// Mints and transfers check the recipient; burns pass.
contract IdentityVerificationModule is RecipientModuleBase {
    uint256 public constant MAX_EXPRESSION_NODES = 32;
    uint8 internal constant TOPIC = 0;
    uint8 internal constant AND = 1;
    uint8 internal constant OR = 2;
    uint8 internal constant NOT = 3;

    struct Node {
        uint8 nodeType;
        uint256 value;
    }

    mapping(address token => Node[]) private _expression;

    error ExpressionTooLong(uint256 length, uint256 max);
    /// The node at `index` has an unknown type or lacks operands; index == length when the
    /// expression does not reduce to exactly one value.
    error MalformedExpression(uint256 index);

    function typeId() public pure virtual override returns (string memory) {
        return "identity-verification-v2";
    }

    function expressionOf(address token) external view returns (Node[] memory) {
        return _expression[token];
    }

    function _configure(address token, bytes calldata params) internal override {
        Node[] memory expression = abi.decode(params, (Node[]));
        if (expression.length > MAX_EXPRESSION_NODES) {
            revert ExpressionTooLong(expression.length, MAX_EXPRESSION_NODES);
        }
        uint256 depth = 0;
        for (uint256 i = 0; i < expression.length; i++) {
            uint8 nodeType = expression[i].nodeType;
            if (nodeType == TOPIC) depth++;
            else if (nodeType == NOT) {
                if (depth < 1) revert MalformedExpression(i);
            } else if (nodeType == AND || nodeType == OR) {
                if (depth < 2) revert MalformedExpression(i);
                depth--;
            } else {
                revert MalformedExpression(i);
            }
        }
        if (expression.length != 0 && depth != 1) revert MalformedExpression(expression.length);
        delete _expression[token];
        for (uint256 i = 0; i < expression.length; i++) {
            _expression[token].push(expression[i]);
        }
    }

    function _clear(address token) internal override {
        delete _expression[token];
    }

    function _recipientRefusal(address token, address to) internal view override returns (string memory) {
        if (!identityRegistry.contains(to)) return "recipient not registered";
        Node[] storage expression = _expression[token];
        // An empty expression requires registration only: the registry is asked with no topics.
        bool verified =
            expression.length == 0 ? identityRegistry.isVerified(to, new uint256[](0)) : _evaluate(expression, to);
        return verified ? "" : "recipient not verified";
    }

    function _evaluate(Node[] storage expression, address wallet) private view returns (bool) {
        bool[] memory stack = new bool[](expression.length);
        uint256 top = 0;
        uint256[] memory topic = new uint256[](1);
        for (uint256 i = 0; i < expression.length; i++) {
            Node storage node = expression[i];
            if (node.nodeType == TOPIC) {
                topic[0] = node.value;
                stack[top++] = identityRegistry.isVerified(wallet, topic);
            } else if (node.nodeType == NOT) {
                stack[top - 1] = !stack[top - 1];
            } else {
                top--;
                stack[top - 1] = node.nodeType == AND ? stack[top - 1] && stack[top] : stack[top - 1] || stack[top];
            }
        }
        return stack[0];
    }
}
