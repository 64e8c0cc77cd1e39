// Any /api/v1 path no route serves: 404 in the API's error shape, whatever the method
import { errorResponse } from "@/lib/api/errors";

function unknownRoute(request: Request): Response {
  return errorResponse("not_found", { method: request.method, path: new URL(request.url).pathname });
}

export { unknownRoute as GET, unknownRoute as POST, unknownRoute as PUT, unknownRoute as PATCH, unknownRoute as DELETE };
